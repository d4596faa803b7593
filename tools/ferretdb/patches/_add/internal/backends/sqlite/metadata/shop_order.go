// Added to FerretDB v1.24.2 for the shop's development server (tools/ferretdb/patches): see sqlite-order-index.json.

package metadata

import (
	"context"
	"fmt"
	"regexp"
	"strings"

	"github.com/FerretDB/FerretDB/internal/util/fsql"
	"github.com/FerretDB/FerretDB/internal/util/lazyerrors"
)

// MongoDB orders values of different types by type first (BSON comparison order), then by value. These are the
// ranks of that order for the types sjson stores; missing and null share the lowest.
const (
	ShopRankNull      = 1
	ShopRankNumber    = 2
	ShopRankString    = 3
	ShopRankObject    = 4
	ShopRankArray     = 5
	ShopRankBinData   = 6
	ShopRankObjectID  = 7
	ShopRankBool      = 8
	ShopRankDate      = 9
	ShopRankTimestamp = 10
	ShopRankRegex     = 11
)

// ShopRankMisfits are the ranks whose values SQLite does not compare the way MongoDB does: objects (field by field),
// arrays (by an element), binary data (length, subtype, bytes; sjson keeps base64), timestamps (unsigned), regular
// expressions. A sort on a field holding any of them is left to the handler.
const ShopRankMisfits = "(4, 5, 6, 10, 11)"

// ShopPlainField is a field name the order expressions accept: it needs no quoting in a JSON path.
var ShopPlainField = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// ShopRank is the SQL expression of the rank of a top-level field's type, read from the document's sjson schema
// ("$s" holds each field's type, "p" its properties).
func ShopRank(field string) string {
	return fmt.Sprintf(
		`CASE %s->>'$."$s".p."%s".t' WHEN 'double' THEN 2 WHEN 'int' THEN 2 WHEN 'long' THEN 2 WHEN 'string' THEN 3 `+
			`WHEN 'object' THEN 4 WHEN 'array' THEN 5 WHEN 'binData' THEN 6 WHEN 'objectId' THEN 7 WHEN 'bool' THEN 8 `+
			`WHEN 'date' THEN 9 WHEN 'timestamp' THEN 10 WHEN 'regex' THEN 11 ELSE 1 END`,
		DefaultColumn, field,
	)
}

// ShopValue is the SQL expression of a top-level field's value as SQLite compares it: numbers (int, long, double)
// as INTEGER or REAL, compared by value across the three; dates as INTEGER milliseconds; strings and ObjectIDs (lower
// hex) as TEXT, compared byte by byte as MongoDB compares them; booleans as 0 and 1; null and missing as NULL.
// Within one rank (ShopRank) but the misfits, SQLite's order of these values is MongoDB's.
func ShopValue(field string) string {
	return fmt.Sprintf(`%s->>'$."%s"'`, DefaultColumn, field)
}

// ShopOrderIndexName is the name of the order index that goes with the index of that name.
func ShopOrderIndexName(tableName, indexName string) string {
	return tableName + "_" + indexName + "_shop"
}

// ShopIDOrderIndexName is the name of the collection's order index on _id alone.
func ShopIDOrderIndexName(tableName string) string {
	return tableName + "__id__shop"
}

// shopOrderColumns are the columns of the order index that goes with an index: rank and value of each field of its
// key up to the first that is not a plain top-level name, then _id (in the direction of the last) unless the key
// has it, so that a sort by the leading field with _id as the tie-breaker is read off the index. None when the
// first field is not plain.
func shopOrderColumns(key []IndexKeyPair) []string {
	var columns []string

	descending := false
	hasID := false

	for _, k := range key {
		if !ShopPlainField.MatchString(k.Field) {
			break
		}

		order := ""
		if k.Descending {
			order = " DESC"
		}

		columns = append(columns, ShopRank(k.Field)+order, ShopValue(k.Field)+order)
		descending = k.Descending
		hasID = hasID || k.Field == "_id"
	}

	if len(columns) == 0 || hasID {
		return columns
	}

	order := ""
	if descending {
		order = " DESC"
	}

	return append(columns, ShopRank("_id")+order, ShopValue("_id")+order)
}

// shopCreateOrderIndexes creates, when missing, the order index that goes with an index and the collection's order
// index on _id (sqlite-order-index.json): when the index is created, and for indexes made by a build without order
// indexes, when FerretDB opens the database (shop_index_build.go).
func shopCreateOrderIndexes(ctx context.Context, x shopExecer, tableName string, index IndexInfo) error {
	columns := shopOrderColumns(index.Key)
	if len(columns) == 0 || index.Name == "_id_" { // the order index on _id serves the default index's
		return nil
	}

	qs := []string{
		fmt.Sprintf(
			"CREATE INDEX IF NOT EXISTS %q ON %q (%s)",
			ShopOrderIndexName(tableName, index.Name), tableName, strings.Join(columns, ", "),
		),
		fmt.Sprintf(
			"CREATE INDEX IF NOT EXISTS %q ON %q (%s)",
			ShopIDOrderIndexName(tableName), tableName, ShopRank("_id")+", "+ShopValue("_id"),
		),
	}

	for _, q := range qs {
		if _, err := x.ExecContext(ctx, q); err != nil {
			return lazyerrors.Error(err)
		}
	}

	return nil
}

// shopDropOrderIndex drops the order index that goes with an index, if any.
func shopDropOrderIndex(ctx context.Context, db *fsql.DB, tableName, indexName string) error {
	q := fmt.Sprintf("DROP INDEX IF EXISTS %q", ShopOrderIndexName(tableName, indexName))
	if _, err := db.ExecContext(ctx, q); err != nil {
		return lazyerrors.Error(err)
	}

	return nil
}
