func f() {
	if x {
		z()
	}
}
