package promote

// Stats counts what one Promote call (or one watched edit) did.
type Stats struct {
	Files      int // target files considered
	Written    int // files whose bytes changed
	Skipped    int // files skipped (their directory could not be used)
	Promoted   int // beliefs newly in ## Beliefs or ## Behavioral Guidelines
	Repromoted int // beliefs back from ## Former Beliefs after recovering
	Demoted    int // beliefs moved to ## Former Beliefs (stage 1)
	Removed    int // beliefs taken out of the file (stage 2, displaced, no room)
	Archived   int // dated sections moved to MEMORY.archive.md by the line budget
	// Orphaned and MissingProject count beliefs with no file: project beliefs
	// without a project path, and those whose project root is gone.
	Orphaned       int
	MissingProject int
	// UserDeleted, UserAdded: bullets a person deleted (beliefs rejected) and
	// added (beliefs created or adopted).
	UserDeleted int
	UserAdded   int
	// ModelRepaired counts bullets of credence's section the model deleted
	// or rewrote, put back without counting against their beliefs;
	// ModelAdded the bullets it added, taken as assistant claims.
	ModelRepaired int
	ModelAdded    int
	// DetailsWritten and DetailsRemoved count credence-<slug>.md files.
	DetailsWritten int
	DetailsRemoved int
}

func (s *Stats) add(o Stats) {
	s.Files += o.Files
	s.Written += o.Written
	s.Skipped += o.Skipped
	s.Promoted += o.Promoted
	s.Repromoted += o.Repromoted
	s.Demoted += o.Demoted
	s.Removed += o.Removed
	s.Archived += o.Archived
	s.Orphaned += o.Orphaned
	s.MissingProject += o.MissingProject
	s.UserDeleted += o.UserDeleted
	s.UserAdded += o.UserAdded
	s.ModelRepaired += o.ModelRepaired
	s.ModelAdded += o.ModelAdded
	s.DetailsWritten += o.DetailsWritten
	s.DetailsRemoved += o.DetailsRemoved
}
