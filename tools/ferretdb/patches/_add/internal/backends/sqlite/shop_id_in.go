// Added to FerretDB v1.24.2 for the shop's development server (tools/ferretdb/patches): see sqlite-id-in-pushdown.json.

package sqlite

import (
	"fmt"
	"strings"

	"github.com/FerretDB/FerretDB/internal/backends/sqlite/metadata"
	"github.com/FerretDB/FerretDB/internal/handler/sjson"
	"github.com/FerretDB/FerretDB/internal/types"
)

// shopMaxIDs is the most _id values narrowed by one IN list (SQLite allows 32,766 parameters; lookups by id are
// pages and baskets).
const shopMaxIDs = 1000

// shopIDIn returns a WHERE clause selecting the rows whose _id is one of those of an operator document that is
// exactly {$in: [strings or ObjectIds...]}, seeking the _id index once per value; "" when the document is anything
// else. The handler still applies the whole filter to what comes back.
func shopIDIn(op *types.Document) (string, []any) {
	if op.Len() != 1 {
		return "", nil
	}

	in, err := op.Get("$in")
	if err != nil {
		return "", nil
	}

	arr, ok := in.(*types.Array)
	if !ok || arr.Len() == 0 || arr.Len() > shopMaxIDs {
		return "", nil
	}

	marks := make([]string, arr.Len())
	args := make([]any, arr.Len())

	for i := 0; i < arr.Len(); i++ {
		v, _ := arr.Get(i)

		switch v.(type) {
		case string, types.ObjectID:
		default:
			return "", nil
		}

		b, err := sjson.MarshalSingleValue(v)
		if err != nil {
			return "", nil
		}

		marks[i] = "?"
		args[i] = string(b)
	}

	return fmt.Sprintf(` WHERE %s IN (%s)`, metadata.IDColumn, strings.Join(marks, ", ")), args
}
