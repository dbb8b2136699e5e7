//go:build !linux

package markdown

// swapIn puts tmp in path's place with a check and a rename.
// Outside Linux there is no portable exchange, so a lock-free writer whose
// rename lands between the check and ours loses that write; WriteSection's
// verification after the rename catches every later write.
func swapIn(tmp, path string, expected, _ []byte, existed bool) error {
	return renameChecked(tmp, path, expected, existed)
}
