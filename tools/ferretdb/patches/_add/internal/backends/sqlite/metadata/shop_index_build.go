// Added to FerretDB v1.24.2 for the shop's development server (tools/ferretdb/patches): see sqlite-index-build.json.

package metadata

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"

	"github.com/FerretDB/FerretDB/internal/util/fsql"
	"github.com/FerretDB/FerretDB/internal/util/lazyerrors"
)

// shopExecer runs the statements of an index build: the database, or a transaction of it.
type shopExecer interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// shopIndexesBuild creates the indexes c does not list yet, each with its companions, and records them in c's
// settings and in the metadata table, all in one transaction: SQLite then holds either every index of the request
// and its metadata, or none of it, even when FerretDB is killed midway. (Upstream created them one statement at a time
// and recorded them at the end: an error or a cancel in between left SQLite indexes no metadata named, which every
// later createIndexes of the same index failed on.) c is the caller's copy; it is stored only on success.
func shopIndexesBuild(ctx context.Context, l *slog.Logger, db *fsql.DB, c *Collection, indexes []IndexInfo) error {
	return db.InTransaction(ctx, func(tx *fsql.Tx) error {
		for _, index := range indexes {
			if slices.ContainsFunc(c.Settings.Indexes, func(i IndexInfo) bool { return index.Name == i.Name }) {
				continue
			}

			if err := shopIndexBuild(ctx, l, tx, c.TableName, index); err != nil {
				return err
			}

			c.Settings.Indexes = append(c.Settings.Indexes, index)
		}

		q := fmt.Sprintf("UPDATE %q SET settings = ? WHERE table_name = ?", metadataTableName)
		if _, err := tx.ExecContext(ctx, q, c.Settings, c.TableName); err != nil {
			return lazyerrors.Error(err)
		}

		return nil
	})
}

// shopIndexBuild creates one index and its companions. An SQLite index of its name that no metadata lists (left by
// an interrupted build of an older FerretDB) is adopted when it is the same index, and rebuilt otherwise.
func shopIndexBuild(ctx context.Context, l *slog.Logger, x shopExecer, tableName string, index IndexInfo) error {
	name := tableName + "_" + index.Name
	q := shopIndexSQL(tableName, index)

	found, err := shopIndexDefinition(ctx, x, name)
	if err != nil {
		return err
	}

	switch found {
	case "":
		if _, err = x.ExecContext(ctx, q); err != nil {
			return lazyerrors.Error(err)
		}

	case q:
		l.WarnContext(ctx, "adopting an index an interrupted build left without metadata", slog.String("index", name))

	default:
		l.WarnContext(
			ctx, "rebuilding an index an interrupted build left without metadata: its definition differs",
			slog.String("index", name), slog.String("found", found), slog.String("wanted", q),
		)

		// its order index goes too: it may have been made for the other definition
		for _, drop := range []string{name, ShopOrderIndexName(tableName, index.Name)} {
			if _, err = x.ExecContext(ctx, fmt.Sprintf("DROP INDEX IF EXISTS %q", drop)); err != nil {
				return lazyerrors.Error(err)
			}
		}

		if _, err = x.ExecContext(ctx, q); err != nil {
			return lazyerrors.Error(err)
		}
	}

	return shopCreateCompanionIndexes(ctx, x, tableName, index)
}

// shopIndexesOpen makes, when FerretDB opens a database, what its collections' indexes lack: the SQLite index of one
// the metadata lists but SQLite does not hold (dropped by a drop interrupted before its metadata was updated), and the
// companions of indexes made by a build without them (once: seconds for 100,000 documents; none after that).
func shopIndexesOpen(ctx context.Context, l *slog.Logger, db *fsql.DB, colls map[string]*Collection) error {
	for _, c := range colls {
		for _, index := range c.Settings.Indexes {
			name := c.TableName + "_" + index.Name

			found, err := shopIndexDefinition(ctx, db, name)
			if err != nil {
				return err
			}

			if found == "" {
				l.WarnContext(ctx, "creating an index the metadata lists but SQLite lacks", slog.String("index", name))

				if _, err = db.ExecContext(ctx, shopIndexSQL(c.TableName, index)); err != nil {
					return lazyerrors.Error(err)
				}
			}

			if err = shopCreateCompanionIndexes(ctx, db, c.TableName, index); err != nil {
				return err
			}
		}
	}

	return nil
}

// shopCreateCompanionIndexes creates, when missing, the indexes the shop's patches add beside an index: its order
// index (sqlite-order-index.json) and the type indexes of its dotted path's prefixes (sqlite-field-pushdown.json).
func shopCreateCompanionIndexes(ctx context.Context, x shopExecer, tableName string, index IndexInfo) error {
	if err := shopCreateOrderIndexes(ctx, x, tableName, index); err != nil {
		return err
	}

	return shopCreatePathTypeIndexes(ctx, x, tableName, index)
}

// shopIndexDefinition returns the CREATE statement SQLite holds for the index of that name, or "" when it has none.
func shopIndexDefinition(ctx context.Context, x shopExecer, name string) (string, error) {
	var found string

	q := `SELECT sql FROM sqlite_master WHERE type = 'index' AND name = ?`
	if err := x.QueryRowContext(ctx, q, name).Scan(&found); err != nil {
		if errors.Is(err, sql.ErrNoRows) {
			return "", nil
		}

		return "", lazyerrors.Error(err)
	}

	return found, nil
}

// shopIndexSQL is upstream's statement creating an index, as SQLite keeps it in sqlite_master: each key field's
// JSON value (_ferretdb_sjson->"a"->"b" for "a.b").
func shopIndexSQL(tableName string, index IndexInfo) string {
	q := "CREATE "

	if index.Unique {
		q += "UNIQUE "
	}

	q += "INDEX %q ON %q (%s)"

	columns := make([]string, len(index.Key))
	for i, key := range index.Key {
		fields := strings.Split(key.Field, ".")
		for j, f := range fields {
			fields[j] = fmt.Sprintf("%q", f)
		}

		columns[i] = fmt.Sprintf("%s->%s", DefaultColumn, strings.Join(fields, "->"))
		if key.Descending {
			columns[i] += " DESC"
		}
	}

	return fmt.Sprintf(q, tableName+"_"+index.Name, tableName, strings.Join(columns, ", "))
}
