// Added to FerretDB v1.24.2 for the shop's development server (tools/ferretdb/patches): see sqlite-sort-pushdown.json
// and sqlite-order-index.json.

package sqlite

import (
	"context"
	"encoding/hex"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/FerretDB/FerretDB/internal/backends/sqlite/metadata"
	"github.com/FerretDB/FerretDB/internal/types"
	"github.com/FerretDB/FerretDB/internal/util/fsql"
	"github.com/FerretDB/FerretDB/internal/util/lazyerrors"
)

// shopPlan is what SQLite is asked for a query: the WHERE clause, and where it can be exact, the order and a limit.
type shopPlan struct {
	where   string // " WHERE …", or empty
	args    []any
	orderBy string // " ORDER BY …", or empty
	limit   int64  // a LIMIT to add, or 0

	narrowed bool // conditions from the filter beyond upstream's lone _id
	exact    bool // the WHERE clause selects exactly the documents the filter matches
	sorted   bool // rows come in the order of the requested sort, as MongoDB orders them

	// For a filter that is one $or alone, its branches' conditions and arguments: a count unions their rowids, each
	// read off an index alone (SQLite's own OR plan reads every matching row); a sorted, limited page unions their
	// sort keys (shopPageQuery).
	orParts []string
	orArgs  [][]any

	sortKeys []shopSortKey // the ORDER BY's terms, when sorted
}

// shopSortKey is one term of a plan's ORDER BY: an order expression and its direction.
type shopSortKey struct {
	expr string
	desc bool
}

func (k shopSortKey) String() string {
	if k.desc {
		return k.expr + " DESC"
	}

	return k.expr
}

// shopPlanner converts a filter's conditions on top-level fields to SQL on the order expressions
// (metadata.ShopRank, metadata.ShopValue), which the order indexes hold (sqlite-order-index.json).
type shopPlanner struct {
	ctx  context.Context
	db   *fsql.DB
	meta *metadata.Collection

	leading   map[string]bool // top-level fields that lead an order index of the collection
	idOrdered bool            // the order index on _id exists
	arrays    map[string]bool // top-level fields that hold an array in some document (asked once per query)
	pinned    map[string]bool // top-level fields whose rank the WHERE clause fixes (one type, no arrays)

	orParts []string // the branches of the last $or converted, and their arguments
	orArgs  [][]any
	orSeeks bool // each of those branches has a condition on a field an order index leads
}

// shopPlanQuery plans a query: the filter's conditions on top-level fields become SQL conditions that leave out only
// documents the filter cannot match (the handler still applies the whole filter); where every condition converts
// exactly (no field a condition names holds an array in any document, no condition SQLite cannot evaluate as MongoDB
// does), the plan says so, and a count can be taken in SQL and a limit (skip + limit) passed on. A sort on one
// top-level field, optionally with _id as the tie-breaker, becomes an ORDER BY of the order expressions when no
// document holds in those fields a value SQLite would order differently from MongoDB (an array, an object, binary
// data, a timestamp, a regular expression); otherwise the handler sorts as before.
//
// where and args are upstream's condition on a lone _id, if any.
func shopPlanQuery(ctx context.Context, db *fsql.DB, meta *metadata.Collection, filter, sort *types.Document, limit int64, where string, args []any) (*shopPlan, error) { //nolint:lll // as upstream's
	p := &shopPlanner{ctx: ctx, db: db, meta: meta, arrays: map[string]bool{}, pinned: map[string]bool{}}

	plan := &shopPlan{where: where, args: args, exact: true}
	upstreamID := where != ""

	var conds []string

	for _, key := range filter.Keys() {
		v, _ := filter.Get(key)

		if key == "_id" && upstreamID {
			continue
		}

		cond, condArgs, exact, err := p.condition(key, v)
		if err != nil {
			return nil, err
		}

		if holds, checked := p.arrays[key]; cond != "" && checked && !holds && shopOneRank(key, v) {
			p.pinned[key] = true
		}

		plan.exact = plan.exact && exact

		if cond != "" {
			conds = append(conds, cond)
			plan.args = append(plan.args, condArgs...)
		}
	}

	if len(conds) > 0 {
		plan.narrowed = true
		joined := strings.Join(conds, " AND ")

		if plan.where == "" {
			plan.where = " WHERE " + joined
		} else {
			plan.where += " AND " + joined
		}
	}

	// Conditions on dotted paths narrow as before (shop_narrow.go); they are never exact.
	dotted := false
	if w, a := shopNarrow(filter, plan.where, plan.args); len(a) > len(plan.args) {
		plan.narrowed = true
		dotted = true
		plan.where, plan.args = w, a
	}

	// A dotted path's index has no order index (only top-level fields do): with both a dotted condition and a sort
	// in SQL, SQLite may walk the sort's order index and test every row against the condition (a customer's orders,
	// newest first, read all 100,000). The rows the condition's index finds are then sorted by the handler instead.
	if sort.Len() > 0 && !dotted {
		keys, err := p.orderBy(sort)
		if err != nil {
			return nil, err
		}

		if len(keys) > 0 {
			plan.sortKeys = keys
			plan.orderBy = " ORDER BY " + shopJoin(keys)
			plan.sorted = true
		}
	}

	if filter.Len() == 1 && filter.Keys()[0] == "$or" && !upstreamID && plan.exact && p.orSeeks {
		plan.orParts, plan.orArgs = p.orParts, p.orArgs
	}

	if limit > 0 && plan.exact && (sort.Len() == 0 || plan.sorted) {
		plan.limit = limit
	}

	return plan, nil
}

// shopCount returns the number of documents the plan's WHERE clause selects.
func shopCount(ctx context.Context, db *fsql.DB, meta *metadata.Collection, plan *shopPlan) (int64, error) {
	var n int64

	q := fmt.Sprintf(`SELECT COUNT(*) FROM %q`, meta.TableName) + plan.where
	args := plan.args

	if len(plan.orParts) > 1 {
		selects := make([]string, len(plan.orParts))
		args = nil

		for i, part := range plan.orParts {
			selects[i] = fmt.Sprintf(`SELECT rowid FROM %q WHERE %s`, meta.TableName, part)
			args = append(args, plan.orArgs[i]...)
		}

		q = `SELECT COUNT(*) FROM (` + strings.Join(selects, ` UNION `) + `)`
	}

	if err := db.QueryRowContext(ctx, q, args...).Scan(&n); err != nil {
		return 0, lazyerrors.Error(err)
	}

	return n, nil
}

// shopPageQuery is the query of a sorted, limited page of a filter that is one $or of indexed branches: the union
// of each branch's rowids and sort keys, sorted and cut to the limit, and only then the documents of those rows
// (selectClause is upstream's SELECT … FROM the table; the rows come in the plan's order). SQLite's own OR plan
// reads every match's row to compute its sort keys, parsing its JSON (about 0.05 ms for a 2–3 KB order: 0.34 s for
// the 25 rows of a search with 7,000 matches). A branch read from an index whose columns hold the sort keys (an
// order index of {customerName: 1, _id: 1, createdAt: -1} for a sort by createdAt and _id) takes them from the
// index instead (SQLite's indexed-expression values): no row is read but the page's. Without such an index it
// costs what SQLite's OR plan does. ok is false for any other plan.
func shopPageQuery(selectClause, table string, plan *shopPlan, limit int64) (string, []any, bool) {
	if len(plan.orParts) < 2 || !plan.sorted || limit <= 0 {
		return "", nil, false
	}

	columns := []string{"rowid AS shop_row"}
	order := make([]string, len(plan.sortKeys))

	for i, k := range plan.sortKeys {
		columns = append(columns, fmt.Sprintf("%s AS shop_k%d", k.expr, i))
		order[i] = shopSortKey{fmt.Sprintf("shop_k%d", i), k.desc}.String()
	}

	selects := make([]string, len(plan.orParts))
	var args []any

	for i, part := range plan.orParts {
		selects[i] = fmt.Sprintf(`SELECT %s FROM %q WHERE %s`, strings.Join(columns, ", "), table, part)
		args = append(args, plan.orArgs[i]...)
	}

	// UNION drops a row both branches find: the same rowid has the same keys.
	q := fmt.Sprintf(
		`%s WHERE rowid IN (SELECT shop_row FROM (%s ORDER BY %s LIMIT ?))%s`,
		selectClause, strings.Join(selects, ` UNION `), strings.Join(order, ", "), plan.orderBy,
	)

	return q, append(args, limit), true
}

// loadIndexes finds, once per query and only for a query that asks, which top-level fields lead an order index that
// exists (an index made before the order indexes has none until it is created again).
func (p *shopPlanner) loadIndexes() error {
	if p.leading != nil {
		return nil
	}

	p.leading = map[string]bool{}

	rows, err := p.db.QueryContext(
		p.ctx, `SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = ?`, p.meta.TableName,
	)
	if err != nil {
		return lazyerrors.Error(err)
	}
	defer rows.Close()

	existing := map[string]bool{}

	for rows.Next() {
		var name string
		if err = rows.Scan(&name); err != nil {
			return lazyerrors.Error(err)
		}

		existing[name] = true
	}

	if err = rows.Err(); err != nil {
		return lazyerrors.Error(err)
	}

	p.idOrdered = existing[metadata.ShopIDOrderIndexName(p.meta.TableName)]

	for _, index := range p.meta.Settings.Indexes {
		if len(index.Key) > 0 && existing[metadata.ShopOrderIndexName(p.meta.TableName, index.Name)] {
			p.leading[index.Key[0].Field] = true
		}
	}

	return nil
}

// exists tells whether some document of the collection satisfies cond.
func (p *shopPlanner) exists(cond string) (bool, error) {
	var found bool

	q := fmt.Sprintf(`SELECT EXISTS (SELECT 1 FROM %q WHERE %s)`, p.meta.TableName, cond)
	if err := p.db.QueryRowContext(p.ctx, q).Scan(&found); err != nil {
		return false, lazyerrors.Error(err)
	}

	return found, nil
}

// mayHoldArrays tells whether field may hold an array in some document: asked of the field's order index when
// there is one (a seek), assumed otherwise. _id never holds one.
func (p *shopPlanner) mayHoldArrays(field string) (bool, error) {
	if field == "_id" {
		return false, nil
	}

	if err := p.loadIndexes(); err != nil {
		return false, err
	}

	if !p.leading[field] {
		return true, nil
	}

	if found, ok := p.arrays[field]; ok {
		return found, nil
	}

	found, err := p.exists(fmt.Sprintf(`%s = %d`, metadata.ShopRank(field), metadata.ShopRankArray))
	if err != nil {
		return false, err
	}

	p.arrays[field] = found

	return found, nil
}

// condition converts one key of a filter document and its value. It returns the SQL condition (empty when the key
// narrows nothing), its arguments, and whether the condition is exactly the key's (no document is selected that the
// key does not match, and none left out that it does).
func (p *shopPlanner) condition(key string, v any) (string, []any, bool, error) {
	switch key {
	case "$and", "$or":
		arr, ok := v.(*types.Array)
		if !ok || arr.Len() == 0 {
			return "", nil, false, nil
		}

		var parts []string
		var args []any
		var partArgs [][]any
		exact := true

		for i := 0; i < arr.Len(); i++ {
			doc, ok := shopGet(arr.Get(i)).(*types.Document)
			if !ok {
				return "", nil, false, nil
			}

			cond, condArgs, docExact, err := p.document(doc)
			if err != nil {
				return "", nil, false, err
			}

			exact = exact && docExact

			if cond == "" {
				if key == "$or" {
					// a branch that narrows nothing: neither does the $or
					return "", nil, false, nil
				}

				continue
			}

			parts = append(parts, cond)
			args = append(args, condArgs...)
			partArgs = append(partArgs, condArgs)
		}

		if len(parts) == 0 {
			return "", nil, exact, nil
		}

		op := " AND "
		if key == "$or" {
			op = " OR "
			p.orParts, p.orArgs = parts, partArgs

			seeks, err := p.seeksEach(arr)
			if err != nil {
				return "", nil, false, err
			}

			p.orSeeks = seeks
		}

		return "(" + strings.Join(parts, op) + ")", args, exact, nil
	}

	if !metadata.ShopPlainField.MatchString(key) {
		return "", nil, false, nil
	}

	cond, args, exact := shopFieldCondition(key, v)
	if cond == "" {
		return "", nil, false, nil
	}

	arrays, err := p.mayHoldArrays(key)
	if err != nil {
		return "", nil, false, err
	}

	if arrays {
		// an array matches when an element does, which is the handler's to say
		cond = fmt.Sprintf(`(%s OR %s = %d)`, cond, metadata.ShopRank(key), metadata.ShopRankArray)
		exact = false
	}

	return cond, args, exact, nil
}

// seeksEach tells whether each branch of an $or has a condition on a top-level field that an order index leads,
// so that SQLite can read each branch off an index (a branch it cannot would be a scan of its own in a union).
func (p *shopPlanner) seeksEach(branches *types.Array) (bool, error) {
	if err := p.loadIndexes(); err != nil {
		return false, err
	}

	for i := 0; i < branches.Len(); i++ {
		doc, _ := shopGet(branches.Get(i)).(*types.Document)
		if doc == nil || !slices.ContainsFunc(doc.Keys(), func(k string) bool {
			return p.leading[k] || (k == "_id" && p.idOrdered)
		}) {
			return false, nil
		}
	}

	return true, nil
}

// document converts a filter document (its keys are ANDed).
func (p *shopPlanner) document(doc *types.Document) (string, []any, bool, error) {
	var parts []string
	var args []any

	exact := true

	for _, key := range doc.Keys() {
		cond, condArgs, condExact, err := p.condition(key, shopGet(doc.Get(key)))
		if err != nil {
			return "", nil, false, err
		}

		exact = exact && condExact

		if cond != "" {
			parts = append(parts, cond)
			args = append(args, condArgs...)
		}
	}

	if len(parts) == 0 {
		return "", nil, exact, nil
	}

	return "(" + strings.Join(parts, " AND ") + ")", args, exact, nil
}

// shopFieldCondition converts the condition on one top-level field for the documents where it holds no array: an
// equality, or an operator document of $eq, $gt, $gte, $lt, $lte and $in, to values of the types whose order SQLite
// keeps (metadata.ShopValue). MongoDB compares a value only with values of its own rank (numbers of any kind with
// numbers), as the rank condition does. Operators it does not convert make it inexact, not wrong: the handler
// applies them.
func shopFieldCondition(field string, v any) (string, []any, bool) {
	rank, value := metadata.ShopRank(field), metadata.ShopValue(field)

	op, isDoc := v.(*types.Document)
	if !isDoc {
		return shopEquality(rank, value, v)
	}

	if op.Len() == 0 || !strings.HasPrefix(op.Keys()[0], "$") {
		return "", nil, false // equality to a document
	}

	var parts []string
	var args []any

	exact := true

	for _, name := range op.Keys() {
		operand := shopGet(op.Get(name))

		switch name {
		case "$eq":
			cond, condArgs, ok := shopEquality(rank, value, operand)
			if !ok {
				exact = false
				continue
			}

			parts = append(parts, cond)
			args = append(args, condArgs...)

		case "$gt", "$gte", "$lt", "$lte":
			r, arg, ok := shopScalar(operand)
			if !ok || r == metadata.ShopRankNull {
				exact = false
				continue
			}

			sqlOp := map[string]string{"$gt": ">", "$gte": ">=", "$lt": "<", "$lte": "<="}[name]
			parts = append(parts, fmt.Sprintf(`(%s = %d AND %s %s ?)`, rank, r, value, sqlOp))
			args = append(args, arg)

		case "$in":
			cond, condArgs, ok := shopIn(rank, value, operand)
			if !ok {
				exact = false
				continue
			}

			parts = append(parts, cond)
			args = append(args, condArgs...)

		default:
			exact = false
		}
	}

	if len(parts) == 0 {
		return "", nil, false
	}

	return "(" + strings.Join(parts, " AND ") + ")", args, exact
}

// shopOneRank tells whether every condition shopFieldCondition makes of a field's value requires one same rank.
func shopOneRank(field string, v any) bool {
	_, args, _ := shopFieldCondition(field, v)
	if args == nil {
		return false // null: rank 1 without a value, or nothing converted
	}

	op, isDoc := v.(*types.Document)
	if !isDoc {
		return true
	}

	rank := 0

	for _, name := range op.Keys() {
		operand := shopGet(op.Get(name))
		if name == "$in" {
			arr, ok := operand.(*types.Array)
			if !ok {
				continue
			}

			for i := 0; i < arr.Len(); i++ {
				operand = shopGet(arr.Get(i))
				if r, _, ok := shopScalar(operand); ok && rank != 0 && r != rank {
					return false
				} else if ok {
					rank = r
				}
			}

			continue
		}

		if r, _, ok := shopScalar(operand); ok && r != metadata.ShopRankNull {
			if rank != 0 && r != rank {
				return false
			}

			rank = r
		}
	}

	return rank != 0
}

// shopEquality is the condition that the field equals a value (null: is null or missing).
func shopEquality(rank, value string, v any) (string, []any, bool) {
	r, arg, ok := shopScalar(v)
	if !ok {
		return "", nil, false
	}

	if r == metadata.ShopRankNull {
		return fmt.Sprintf(`%s = %d`, rank, r), nil, true
	}

	return fmt.Sprintf(`(%s = %d AND %s = ?)`, rank, r, value), []any{arg}, true
}

// shopIn is the condition of an $in of scalar values (at most 100), one IN per rank.
func shopIn(rank, value string, v any) (string, []any, bool) {
	arr, ok := v.(*types.Array)
	if !ok || arr.Len() == 0 || arr.Len() > 100 {
		return "", nil, false
	}

	byRank := map[int][]any{}
	var ranks []int

	for i := 0; i < arr.Len(); i++ {
		r, arg, ok := shopScalar(shopGet(arr.Get(i)))
		if !ok || r == metadata.ShopRankNull {
			return "", nil, false
		}

		if _, seen := byRank[r]; !seen {
			ranks = append(ranks, r)
		}

		byRank[r] = append(byRank[r], arg)
	}

	var parts []string
	var args []any

	for _, r := range ranks {
		marks := strings.TrimSuffix(strings.Repeat("?, ", len(byRank[r])), ", ")
		parts = append(parts, fmt.Sprintf(`(%s = %d AND %s IN (%s))`, rank, r, value, marks))
		args = append(args, byRank[r]...)
	}

	return "(" + strings.Join(parts, " OR ") + ")", args, true
}

// shopScalar is a value's rank and the SQL argument SQLite compares metadata.ShopValue with, for the types whose
// order SQLite keeps.
func shopScalar(v any) (int, any, bool) {
	switch v := v.(type) {
	case string:
		return metadata.ShopRankString, v, true
	case bool:
		if v {
			return metadata.ShopRankBool, int64(1), true
		}

		return metadata.ShopRankBool, int64(0), true
	case int32:
		return metadata.ShopRankNumber, int64(v), true
	case int64:
		return metadata.ShopRankNumber, v, true
	case float64:
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return 0, nil, false
		}

		return metadata.ShopRankNumber, v, true
	case types.ObjectID:
		return metadata.ShopRankObjectID, hex.EncodeToString(v[:]), true
	case time.Time:
		return metadata.ShopRankDate, v.UnixMilli(), true
	case types.NullType:
		return metadata.ShopRankNull, nil, true
	default:
		return 0, nil, false
	}
}

// orderBy is the ORDER BY's terms of a sort on one top-level field, optionally with _id as the tie-breaker, when
// SQLite's order is MongoDB's for every document; none otherwise (the handler sorts). That takes an order index
// leading with each field: it answers, by a seek, whether any document holds a value SQLite orders otherwise (a
// misfit), and gives SQLite the rows in order.
func (p *shopPlanner) orderBy(sort *types.Document) ([]shopSortKey, error) {
	keys := sort.Keys()

	switch {
	case len(keys) == 1:
	case len(keys) == 2 && keys[1] == "_id" && keys[0] != "_id":
	default:
		return nil, nil
	}

	if err := p.loadIndexes(); err != nil {
		return nil, err
	}

	var terms []shopSortKey

	for _, field := range keys {
		indexed := p.leading[field]
		if field == "_id" {
			indexed = p.idOrdered
		}

		if !indexed || !metadata.ShopPlainField.MatchString(field) {
			return nil, nil
		}

		misfit, err := p.exists(fmt.Sprintf(`%s IN %s`, metadata.ShopRank(field), metadata.ShopRankMisfits))
		if err != nil || misfit {
			return nil, err
		}

		v, _ := sort.Get(field)
		desc := v == int64(-1)

		// A rank the WHERE clause fixes is left out: SQLite does not see that an equality on an index's expression
		// leaves the index's order to the next column, and would sort.
		if !p.pinned[field] {
			terms = append(terms, shopSortKey{metadata.ShopRank(field), desc})
		}

		terms = append(terms, shopSortKey{metadata.ShopValue(field), desc})
	}

	return terms, nil
}

// shopJoin is a list of sort terms as SQL.
func shopJoin(keys []shopSortKey) string {
	terms := make([]string, len(keys))
	for i, k := range keys {
		terms[i] = k.String()
	}

	return strings.Join(terms, ", ")
}

// shopGet returns v, ignoring err (for values whose presence is known).
func shopGet(v any, _ error) any { return v }
