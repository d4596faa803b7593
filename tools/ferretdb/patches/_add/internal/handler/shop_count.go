// Added to FerretDB v1.24.2 for the shop's development server (tools/ferretdb/patches): see sqlite-sort-pushdown.json.

package handler

import (
	"context"
	"math"
	"strings"

	"github.com/FerretDB/FerretDB/internal/backends"
	"github.com/FerretDB/FerretDB/internal/handler/common/aggregations"
	"github.com/FerretDB/FerretDB/internal/types"
	"github.com/FerretDB/FerretDB/internal/util/iterator"
	"github.com/FerretDB/FerretDB/internal/util/lazyerrors"
	"github.com/FerretDB/FerretDB/internal/util/must"
)

// shopCountShape recognises the pipeline of a count, as the drivers' countDocuments sends it:
// [{$match: filter}, {$group: {_id: <constant>, <field>: {$sum: 1}}}]. It returns the group's _id and the field.
func shopCountShape(pipeline []any) (any, string, bool) {
	if len(pipeline) != 2 {
		return nil, "", false
	}

	match, ok := pipeline[0].(*types.Document)
	if !ok || match.Len() != 1 {
		return nil, "", false
	}

	if _, ok = must.NotFail(match.Get(match.Command())).(*types.Document); !ok || match.Command() != "$match" {
		return nil, "", false
	}

	group, ok := pipeline[1].(*types.Document)
	if !ok || group.Len() != 1 || group.Command() != "$group" {
		return nil, "", false
	}

	spec, ok := must.NotFail(group.Get("$group")).(*types.Document)
	if !ok || spec.Len() != 2 || spec.Keys()[0] != "_id" {
		return nil, "", false
	}

	id := must.NotFail(spec.Get("_id"))
	switch id := id.(type) {
	case int32, int64, float64, types.NullType:
	case string:
		if strings.HasPrefix(id, "$") {
			return nil, "", false // a field path: one group per value
		}
	default:
		return nil, "", false
	}

	field := spec.Keys()[1]

	sum, ok := must.NotFail(spec.Get(field)).(*types.Document)
	if !ok || sum.Len() != 1 || sum.Command() != "$sum" {
		return nil, "", false
	}

	switch one := must.NotFail(sum.Get("$sum")).(type) {
	case int32:
		ok = one == 1
	case int64:
		ok = one == 1
	default:
		ok = false
	}

	return id, field, ok
}

// shopCountStages runs a count's pipeline (shopCountShape): the backend is asked for the count alone, which the
// SQLite backend answers with SELECT COUNT(*) where its WHERE clause is exactly the filter; otherwise it returns
// the documents as for any query and the stages run on them as before. The answer is the $group's: one document
// {_id, field: count} (an int, a long past 2^31 - 1), none when nothing matches.
func shopCountStages(ctx context.Context, closer *iterator.MultiCloser, c backends.Collection, qp *backends.QueryParams, stages []aggregations.Stage, id any, field string) (types.DocumentsIterator, error) { //nolint:lll // as upstream's
	qp.ShopCount = true

	res, err := c.Query(ctx, qp)
	if err != nil {
		closer.Close()
		return nil, lazyerrors.Error(err)
	}

	closer.Add(res.Iter)

	if !res.ShopCounted {
		iter := res.Iter

		for _, s := range stages {
			if iter, err = s.Process(ctx, iter, closer); err != nil {
				return nil, err
			}
		}

		return iter, nil
	}

	var docs []*types.Document

	if res.ShopCount > 0 {
		var n any = res.ShopCount
		if res.ShopCount <= math.MaxInt32 {
			n = int32(res.ShopCount)
		}

		docs = append(docs, must.NotFail(types.NewDocument("_id", id, field, n)))
	}

	return iterator.Values(iterator.ForSlice(docs)), nil
}
