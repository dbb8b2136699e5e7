// Package plural writes counts with their nouns for people to read:
// "1 file", "2 files", "3 queries". Every "%d <noun>" credence prints goes
// through Count, so none says "1 files".
//
// plural imports only the standard library; the hook path may use it.
package plural
