// Added to FerretDB v1.24.2 for the shop's development server (tools/ferretdb/patches): see sqlite-field-pushdown.json.

package metadata

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/FerretDB/FerretDB/internal/util/fsql"
	"github.com/FerretDB/FerretDB/internal/util/lazyerrors"
)

// ShopPathMaxNames is the number of names of the longest dotted path a query is narrowed by in SQLite
// (shop_narrow.go).
const ShopPathMaxNames = 3

// ShopPathType is the SQL expression of the JSON type of the value at a path of plain names: 'array' when it is an
// array, NULL when there is nothing there. The type index of the path is on this expression.
func ShopPathType(path []string) string {
	return fmt.Sprintf(`json_type(%s, '$.%s')`, DefaultColumn, strings.Join(path, "."))
}

// ShopPathTypeIndexName is the name of a collection's type index of a path. One serves every index whose key leads
// with a field below that path (user for {"user._id": 1} and {"user.email": 1}).
func ShopPathTypeIndexName(tableName string, path []string) string {
	return shopPathTypeIndexPrefix(tableName) + strings.Join(path, ".")
}

func shopPathTypeIndexPrefix(tableName string) string { return tableName + "__shop_type_" }

// shopPathTypePrefixes returns the proper prefixes of the index's leading field when it is a dotted path of plain
// names that queries are narrowed by (user for user._id; a and a.b for a.b.c), none otherwise.
//
// A query by the path must also find the documents where any prefix holds an array (an array of documents matches by
// an element): with a type index on each prefix, that is a seek per prefix, as the path's own condition is a seek in
// the index. Only the leading field matters: a seek in an index starts there.
func shopPathTypePrefixes(key []IndexKeyPair) [][]string {
	if len(key) == 0 {
		return nil
	}

	path := strings.Split(key[0].Field, ".")
	if len(path) < 2 || len(path) > ShopPathMaxNames || slices.ContainsFunc(path, shopNotPlain) {
		return nil
	}

	prefixes := make([][]string, len(path)-1)
	for i := range prefixes {
		prefixes[i] = path[:i+1]
	}

	return prefixes
}

func shopNotPlain(name string) bool { return !ShopPlainField.MatchString(name) }

// shopCreatePathTypeIndexes creates, when missing, the type indexes of the prefixes of the index's leading field.
func shopCreatePathTypeIndexes(ctx context.Context, x shopExecer, tableName string, index IndexInfo) error {
	for _, prefix := range shopPathTypePrefixes(index.Key) {
		q := fmt.Sprintf(
			"CREATE INDEX IF NOT EXISTS %q ON %q (%s)",
			ShopPathTypeIndexName(tableName, prefix), tableName, ShopPathType(prefix),
		)

		if _, err := x.ExecContext(ctx, q); err != nil {
			return lazyerrors.Error(err)
		}
	}

	return nil
}

// shopDropPathTypeIndexes drops the collection's type indexes that none of its remaining indexes needs.
func shopDropPathTypeIndexes(ctx context.Context, db *fsql.DB, tableName string, remaining []IndexInfo) error {
	needed := map[string]bool{}

	for _, index := range remaining {
		for _, prefix := range shopPathTypePrefixes(index.Key) {
			needed[ShopPathTypeIndexName(tableName, prefix)] = true
		}
	}

	prefix := shopPathTypeIndexPrefix(tableName)

	rows, err := db.QueryContext(ctx, `SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = ?`, tableName)
	if err != nil {
		return lazyerrors.Error(err)
	}

	var unneeded []string

	for rows.Next() {
		var name string
		if err = rows.Scan(&name); err != nil {
			rows.Close()
			return lazyerrors.Error(err)
		}

		if strings.HasPrefix(name, prefix) && !needed[name] {
			unneeded = append(unneeded, name)
		}
	}

	rows.Close()

	if err = rows.Err(); err != nil {
		return lazyerrors.Error(err)
	}

	for _, name := range unneeded {
		if _, err = db.ExecContext(ctx, fmt.Sprintf("DROP INDEX %q", name)); err != nil {
			return lazyerrors.Error(err)
		}
	}

	return nil
}
