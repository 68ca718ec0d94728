fn main() {
    let a = 1;
}

fn other() {
    let a = 1;
}
