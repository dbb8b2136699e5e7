package hranatest

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"math"
	"strconv"
)

// The JSON shapes of Hrana 3 over HTTP that the server reads and writes,
// named as in the protocol's specification (tursodatabase/libsql,
// docs/HRANA_3_SPEC.md). Fields a peer does not know are ignored, as the
// specification asks.

type pipelineReq struct {
	Baton    *string     `json:"baton"`
	Requests []streamReq `json:"requests"`
}

type pipelineResp struct {
	Baton   *string        `json:"baton"`
	BaseURL *string        `json:"base_url"`
	Results []streamResult `json:"results"`
}

type cursorReq struct {
	Baton *string `json:"baton"`
	Batch batch   `json:"batch"`
}

type cursorResp struct {
	Baton   *string `json:"baton"`
	BaseURL *string `json:"base_url"`
}

// The lines after a cursor response's first.
type (
	stepBeginEntry struct {
		Type string `json:"type"`
		Step uint32 `json:"step"`
		Cols []col  `json:"cols"`
	}
	rowEntry struct {
		Type string  `json:"type"`
		Row  []value `json:"row"`
	}
	stepEndEntry struct {
		Type             string  `json:"type"`
		AffectedRowCount uint64  `json:"affected_row_count"`
		LastInsertRowid  *string `json:"last_insert_rowid"`
	}
	stepErrorEntry struct {
		Type  string      `json:"type"`
		Step  uint32      `json:"step"`
		Error *protoError `json:"error"`
	}
	errorEntry struct {
		Type  string      `json:"type"`
		Error *protoError `json:"error"`
	}
)

type streamReq struct {
	Type  string  `json:"type"`
	Stmt  *stmt   `json:"stmt"`
	Batch *batch  `json:"batch"`
	SQL   *string `json:"sql"`
	SQLID *int32  `json:"sql_id"`
}

type streamResult struct {
	Type     string      `json:"type"` // "ok" or "error"
	Response any         `json:"response,omitempty"`
	Error    *protoError `json:"error,omitempty"`
}

type protoError struct {
	Message string `json:"message"`
	Code    string `json:"code,omitempty"`
}

func (e *protoError) Error() string { return e.Message }

type stmt struct {
	SQL       *string    `json:"sql"`
	SQLID     *int32     `json:"sql_id"`
	Args      []value    `json:"args"`
	NamedArgs []namedArg `json:"named_args"`
	WantRows  *bool      `json:"want_rows"`
}

type namedArg struct {
	Name  string `json:"name"`
	Value value  `json:"value"`
}

type batch struct {
	Steps []batchStep `json:"steps"`
}

type batchStep struct {
	Condition *batchCond `json:"condition"`
	Stmt      stmt       `json:"stmt"`
}

type batchCond struct {
	Type  string      `json:"type"`
	Step  uint32      `json:"step"`
	Cond  *batchCond  `json:"cond"`
	Conds []batchCond `json:"conds"`
}

type stmtResult struct {
	Cols             []col     `json:"cols"`
	Rows             [][]value `json:"rows"`
	AffectedRowCount uint64    `json:"affected_row_count"`
	LastInsertRowid  *string   `json:"last_insert_rowid"`
	RowsRead         uint64    `json:"rows_read"`
	RowsWritten      uint64    `json:"rows_written"`
}

type col struct {
	Name     *string `json:"name"`
	Decltype *string `json:"decltype"`
}

type batchResult struct {
	StepResults []*stmtResult `json:"step_results"`
	StepErrors  []*protoError `json:"step_errors"`
}

type describeResult struct {
	Params     []describeParam `json:"params"`
	Cols       []describeCol   `json:"cols"`
	IsExplain  bool            `json:"is_explain"`
	IsReadonly bool            `json:"is_readonly"`
}

type describeParam struct {
	Name *string `json:"name"`
}

type describeCol struct {
	Name     string  `json:"name"`
	Decltype *string `json:"decltype"`
}

// Responses to each stream request; Type repeats the request's.
type (
	typedResp struct {
		Type string `json:"type"`
	}
	executeResp struct {
		Type   string     `json:"type"`
		Result stmtResult `json:"result"`
	}
	batchResp struct {
		Type   string      `json:"type"`
		Result batchResult `json:"result"`
	}
	describeResp struct {
		Type   string         `json:"type"`
		Result describeResult `json:"result"`
	}
	autocommitResp struct {
		Type         string `json:"type"`
		IsAutocommit bool   `json:"is_autocommit"`
	}
)

// value is an SQLite value on the wire: integers travel as decimal strings
// (JSON numbers lose precision past 2^53), blobs as base64.
type value struct {
	Type   string          `json:"type"`
	Value  json.RawMessage `json:"value,omitempty"`
	Base64 *string         `json:"base64,omitempty"`
}

// toGo converts a wire value into what database/sql binds.
func (v value) toGo() (any, error) {
	switch v.Type {
	case "null", "":
		return nil, nil
	case "integer":
		var s string
		if err := json.Unmarshal(v.Value, &s); err != nil {
			// Some clients send the integer as a JSON number.
			var n json.Number
			if err := json.Unmarshal(v.Value, &n); err != nil {
				return nil, fmt.Errorf("integer value %s: %w", v.Value, err)
			}
			s = n.String()
		}
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			return nil, fmt.Errorf("integer value %q: %w", s, err)
		}
		return n, nil
	case "float":
		var f float64
		if err := json.Unmarshal(v.Value, &f); err != nil {
			return nil, fmt.Errorf("float value %s: %w", v.Value, err)
		}
		return f, nil
	case "text":
		var s string
		if err := json.Unmarshal(v.Value, &s); err != nil {
			return nil, fmt.Errorf("text value: %w", err)
		}
		return s, nil
	case "blob":
		var enc string
		if v.Base64 != nil {
			enc = *v.Base64
		}
		b, err := base64.StdEncoding.DecodeString(enc)
		if err != nil {
			if b, err = base64.RawStdEncoding.DecodeString(enc); err != nil {
				return nil, fmt.Errorf("blob value: %w", err)
			}
		}
		return b, nil
	}
	return nil, fmt.Errorf("unknown value type %q", v.Type)
}

func nullValue() value { return value{Type: "null"} }

func intValue(n int64) value {
	raw, _ := json.Marshal(strconv.FormatInt(n, 10))
	return value{Type: "integer", Value: raw}
}

func floatValue(f float64) value {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		// JSON has no such numbers; SQLite stores NaN as NULL anyway.
		return nullValue()
	}
	raw, _ := json.Marshal(f)
	return value{Type: "float", Value: raw}
}

func textValue(s string) value {
	raw, _ := json.Marshal(s)
	return value{Type: "text", Value: raw}
}

func blobValue(b []byte) value {
	enc := base64.StdEncoding.EncodeToString(b)
	return value{Type: "blob", Base64: &enc}
}

// cursorBody renders the result of a cursor's batch (the pipeline's only
// request) as the lines the cursor endpoint answers with.
func cursorBody(resp *pipelineResp) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf) // one value per line
	lines := []any{cursorResp{Baton: resp.Baton, BaseURL: resp.BaseURL}}
	if res := resp.Results[0]; res.Type != "ok" {
		lines = append(lines, errorEntry{Type: "error", Error: res.Error})
	} else {
		br := res.Response.(batchResp).Result
		for i, r := range br.StepResults {
			step := uint32(i)
			switch {
			case br.StepErrors[i] != nil:
				lines = append(lines, stepErrorEntry{Type: "step_error", Step: step, Error: br.StepErrors[i]})
			case r != nil: // nil: skipped by its condition
				lines = append(lines, stepBeginEntry{Type: "step_begin", Step: step, Cols: r.Cols})
				for _, row := range r.Rows {
					lines = append(lines, rowEntry{Type: "row", Row: row})
				}
				lines = append(lines, stepEndEntry{Type: "step_end", AffectedRowCount: r.AffectedRowCount,
					LastInsertRowid: r.LastInsertRowid})
			}
		}
	}
	for _, l := range lines {
		if err := enc.Encode(l); err != nil {
			return nil, err
		}
	}
	return buf.Bytes(), nil
}
