// Added to FerretDB v1.24.2 for the shop's development server (tools/ferretdb/patches): see sqlite-field-pushdown.json.

package sqlite

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/FerretDB/FerretDB/internal/backends/sqlite/metadata"
	"github.com/FerretDB/FerretDB/internal/types"
)

// Field names (of a path) and string values that need no quoting or escaping: the JSON text SQLite's -> returns for
// such a string is exactly `"` + value + `"`, whatever encoder wrote it.
var (
	shopPlainField  = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)
	shopPlainString = regexp.MustCompile(`^[A-Za-z0-9 _.:@+/=-]{0,200}$`)
)

// shopCondition is one condition of a filter in SQL: the field holds the value(s) (value, with its arguments), or it or
// a field on its path holds an array (array, without arguments).
type shopCondition struct {
	value string
	args  []any
	array string
}

// shopNarrow adds to a query's WHERE clause, for each condition of the filter on a dotted path of two or three
// plain names that is an equality to a plain string or a boolean, or an $in of plain strings, a condition SQLite
// evaluates on the stored JSON: the field holds that value, or it or a field on its path holds an array (an array
// matches when an element does, which is left to the handler).
//
// Only documents the filter cannot match are left out: the handler applies the whole filter to whatever the
// backend returns, as it does without pushdown. What changes is that SQLite, not Go, passes over the rest, and a
// query by owner or state no longer decodes every document of the collection.
func shopNarrow(filter *types.Document, where string, args []any) (string, []any) {
	var conds []shopCondition

	for _, key := range filter.Keys() {
		path := strings.Split(key, ".")
		// Top-level fields are shopPlanQuery's (shop_plan.go), which narrows by more kinds of conditions, exactly.
		if len(path) == 1 || len(path) > metadata.ShopPathMaxNames || slices.ContainsFunc(path, shopNotPlainField) {
			continue
		}

		// A document whose field, or any field on the path to it, is an array is left to the handler: that is where
		// arrays of values and of documents match. Each expression is one an index of a key leading with the path
		// holds, so that each term is a seek: the value is the index's own expression (an index on {"a.b": 1} is on
		// _ferretdb_sjson->"a"->"b"), and so is the value being an array (its JSON text begins with '[', as no other
		// JSON text does: a range of the same index); a prefix holding an array is its type index's expression
		// (metadata.ShopPathType, made with the index). One term no index holds and SQLite reads every row.
		field := metadata.DefaultColumn
		var arrays []string

		for i, p := range path {
			field += fmt.Sprintf(`->%q`, p)

			if i < len(path)-1 {
				arrays = append(arrays, metadata.ShopPathType(path[:i+1])+` = 'array'`)
			}
		}

		arrays = append(arrays, fmt.Sprintf(`(%s >= '[' AND %s < '\')`, field, field))
		cond := shopCondition{array: "(" + strings.Join(arrays, " OR ") + ")"}

		switch v := shopValue(filter.Get(key)).(type) {
		case string:
			if !shopPlainString.MatchString(v) {
				continue
			}

			cond.value, cond.args = field+` = ?`, []any{`"` + v + `"`}

		case bool:
			cond.value, cond.args = field+` = ?`, []any{fmt.Sprint(v)}

		case *types.Document:
			values, ok := shopPlainIn(v)
			if !ok {
				continue
			}

			marks := make([]string, len(values))
			for i, s := range values {
				marks[i] = "?"
				cond.args = append(cond.args, `"`+s+`"`)
			}

			cond.value = fmt.Sprintf(`%s IN (%s)`, field, strings.Join(marks, ", "))

		default:
			continue
		}

		conds = append(conds, cond)
	}

	if len(conds) == 0 {
		return where, args
	}

	var narrowed string
	narrowed, args = shopCombine(conds, args)

	if where == "" {
		return ` WHERE ` + narrowed, args
	}

	return where + ` AND ` + narrowed, args
}

// shopCombine joins the conditions with AND. Up to three are spelled out as an OR of every choice between value
// and array per condition, so that each term can be one seek in a compound index ({checkoutId: 1, productId: 1}:
// both values) and SQLite's OR optimisation applies; with more, each condition's own OR (the first field's index).
func shopCombine(conds []shopCondition, args []any) (string, []any) {
	if len(conds) > 3 {
		parts := make([]string, len(conds))
		for i, c := range conds {
			parts[i] = fmt.Sprintf(`(%s OR %s)`, c.value, c.array)
			args = append(args, c.args...)
		}

		return strings.Join(parts, " AND "), args
	}

	terms := make([]string, 0, 1<<len(conds))

	for choice := 0; choice < 1<<len(conds); choice++ {
		parts := make([]string, len(conds))

		for i, c := range conds {
			if choice&(1<<i) != 0 {
				parts[i] = c.array
				continue
			}

			parts[i] = c.value
			args = append(args, c.args...)
		}

		terms = append(terms, "("+strings.Join(parts, " AND ")+")")
	}

	return "(" + strings.Join(terms, " OR ") + ")", args
}

func shopNotPlainField(name string) bool { return !shopPlainField.MatchString(name) }

// shopPlainIn returns the values of an operator document that is exactly {$in: [plain strings...]} (at most 100).
func shopPlainIn(op *types.Document) ([]string, bool) {
	if op.Len() != 1 {
		return nil, false
	}

	in, err := op.Get("$in")
	if err != nil {
		return nil, false
	}

	arr, ok := in.(*types.Array)
	if !ok || arr.Len() == 0 || arr.Len() > 100 {
		return nil, false
	}

	values := make([]string, arr.Len())

	for i := 0; i < arr.Len(); i++ {
		s, ok := shopValue(arr.Get(i)).(string)
		if !ok || !shopPlainString.MatchString(s) {
			return nil, false
		}

		values[i] = s
	}

	return values, true
}

// shopValue is the value, or nil when there is none.
func shopValue(v any, err error) any {
	if err != nil {
		return nil
	}

	return v
}
