package consolidate

import (
	"time"

	"github.com/credence-mem/credence/llm"
	"github.com/credence-mem/credence/store"
)

// cyclePrefix starts a cycle's ID.
const cyclePrefix = "cy_"

// Stats is what one cycle did; it is stored as the cycle's JSON record and
// shown by `credence status` and `credence consolidate`.
type Stats struct {
	CycleID    string    `json:"cycle_id"`
	Trigger    string    `json:"trigger"`
	Mode       string    `json:"mode"`
	Status     string    `json:"status"`
	StartedAt  time.Time `json:"started_at"`
	FinishedAt time.Time `json:"finished_at"`
	Error      string    `json:"error,omitempty"`

	// Episodes were consolidated this cycle; Facts read from them; Failed
	// could not be applied and were set aside (logged).
	Episodes     int `json:"episodes"`
	Facts        int `json:"facts"`
	Failed       int `json:"failed"`
	HighSurprise int `json:"high_surprise"`

	BeliefsCreated int `json:"beliefs_created"`
	Reinforced     int `json:"reinforced"`
	Contradicted   int `json:"contradicted"`
	Partial        int `json:"partial"`
	Superseded     int `json:"superseded"`
	Reactivated    int `json:"reactivated"`
	// Deduplicated facts stated an existing belief in other words and
	// supported it (dedupe.go).
	Deduplicated int `json:"deduplicated"`
	// Restated beliefs were given a sentence rendered again from their
	// triple (their old one was out of step with it).
	Restated int `json:"restated,omitempty"`

	Clusters         int `json:"clusters"`
	ClustersDeferred int `json:"clusters_deferred"`
	Candidates       int `json:"candidates"`
	Classifications  int `json:"classifications"`

	Revised  int `json:"revised"`
	Split    int `json:"split"`
	Merged   int `json:"merged"`
	Archived int `json:"archived"`

	LLM          llm.Usage `json:"llm"`
	LLMFallbacks int       `json:"llm_fallbacks"`

	// Embedder is the ID of the embedder the cycle compared texts with;
	// EmbedderFallback says it stood in for a remote one that did not
	// answer. Endpoints are the remote endpoints that were down when the
	// cycle ended.
	Embedder         string                 `json:"embedder,omitempty"`
	EmbedderFallback bool                   `json:"embedder_fallback,omitempty"`
	Endpoints        []store.EndpointHealth `json:"endpoints,omitempty"`

	// Checkpointed says the budget or a stop request ended the cycle early;
	// Remaining episodes wait for the next one.
	Checkpointed bool            `json:"checkpointed"`
	Remaining    int             `json:"remaining"`
	Promotion    *PromotionStats `json:"promotion,omitempty"`
}
