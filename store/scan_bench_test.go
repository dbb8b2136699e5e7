package store

import (
	"context"
	"encoding/json"
	"testing"
)

func BenchmarkScanShapes(b *testing.B) {
	ctx := context.Background()
	db, _ := benchDB10k(b)
	for _, q := range []struct{ name, sql string }{
		{"full", `SELECT ` + beliefCols + ` FROM beliefs`},
		{"id", `SELECT id FROM beliefs`},
		{"json", `SELECT CAST(json_array(seq, id, statement, subject, predicate, object, context, timeframe, kind, scope, project_path,
	source, status, alpha, beta, counts_at, counts_turn, peak_confidence, evidence_count, supports,
	contradictions, partials, last_reinforced_at, valid_at, invalid_at,
	parent_belief_id, merged_into, pinned, created_at, updated_at, last_hlc, origin,
	stability, last_accessed_at, promoted_at, demoted_at) AS BLOB) FROM beliefs`},
		{"numbers", `SELECT seq, alpha, beta, counts_at, counts_turn, evidence_count FROM beliefs`},
		{"texts", `SELECT statement, subject, predicate, object, context, timeframe FROM beliefs`},
		{"texts-blob", `SELECT CAST(statement AS BLOB), CAST(subject AS BLOB), CAST(predicate AS BLOB), CAST(object AS BLOB), CAST(context AS BLOB), CAST(timeframe AS BLOB) FROM beliefs`},
	} {
		b.Run(q.name, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				rows, err := db.sql.QueryContext(ctx, q.sql)
				if err != nil {
					b.Fatal(err)
				}
				cols, _ := rows.Columns()
				vals := make([]any, len(cols))
				ptrs := make([]any, len(cols))
				for i := range vals {
					ptrs[i] = &vals[i]
				}
				n := 0
				for rows.Next() {
					rows.Scan(ptrs...)
					if q.name == "json" {
						var arr []any
						if err := json.Unmarshal(vals[0].([]byte), &arr); err != nil || len(arr) != 36 {
							b.Fatal(err)
						}
					}
					n++
				}
				rows.Close()
				if n != 10_000 {
					b.Fatal(n)
				}
			}
		})
	}
}
