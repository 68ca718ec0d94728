//! agtool's binary: parse, dispatch, print, exit. Everything else lives in the library.

fn main() {
    let code = agtool::cli::run_main(std::env::args_os().collect());
    std::process::exit(code);
}
