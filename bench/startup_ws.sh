# Sourced by bench/startup.sh and bench/profile.sh: makes the small workspace their short calls
# run in and enters it. Needs $1, the agtool binary. Sets $work (removed on exit): `ws/` holds
# `.git`, a 4 KiB text file `f4k.txt` and a one-file folder `one/`; the state folder exists
# before the measured runs (one read-file made it).
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/ws/.git" "$work/ws/one"
head -c 4096 /dev/urandom | base64 -w 76 | head -c 4096 > "$work/ws/f4k.txt"
touch "$work/ws/one/x"
cd "$work/ws"
"$1" read-file f4k.txt >/dev/null
