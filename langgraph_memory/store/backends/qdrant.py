"""A Qdrant server or cluster through qdrant-client; ``QdrantClient(":memory:")`` runs the
same code path in tests."""

from __future__ import annotations

import contextlib
import threading
import warnings
import weakref
from typing import Any, Iterator, Sequence

from qdrant_client import QdrantClient, models

from langgraph_memory.store.backends._base import (
    DENSE,
    FLOAT_FIELDS,
    FULL_SCAN_KB,
    HNSW_EF_CONSTRUCT,
    HNSW_M,
    HNSW_PAYLOAD_M,
    KEYWORD_FIELDS,
    SPARSE,
    DenseQuery,
    FetchQuery,
    Hit,
    Query,
    SparseQuery,
    StoredPoint,
    Where,
    translate,
    vectors_wanted,
)
from langgraph_memory.store.backends._fetch_order import read_in_key_order
from langgraph_memory.errors import SchemaMismatchError

DEFAULT_COLLECTION = "langgraph_memory"
_LOCKS: "weakref.WeakKeyDictionary[QdrantClient, threading.RLock]" = weakref.WeakKeyDictionary()
_LOCKS_GUARD = threading.Lock()


class _ClientDialect:
    def match(self, key: str, values: tuple[str, ...]) -> Any:
        match: Any = models.MatchValue(value=values[0]) if len(values) == 1 else models.MatchAny(any=list(values))
        return models.FieldCondition(key=key, match=match)

    def has_id(self, ids: tuple[str, ...]) -> Any:
        return models.HasIdCondition(has_id=list(ids))

    def range(
        self, key: str, *, gte: float | None = None, gt: float | None = None, lte: float | None = None,
        lt: float | None = None,
    ) -> Any:
        return models.FieldCondition(key=key, range=models.Range(gte=gte, gt=gt, lte=lte, lt=lt))

    def is_null(self, key: str) -> Any:
        return models.IsNullCondition(is_null=models.PayloadField(key=key))

    def is_empty(self, key: str) -> Any:
        return models.IsEmptyCondition(is_empty=models.PayloadField(key=key))

    def all_of(self, conditions: list[Any]) -> Any:
        return models.Filter(must=conditions or None)

    def any_of(self, conditions: list[Any]) -> Any:
        return models.Filter(should=conditions)


def to_filter(where: Where) -> models.Filter:
    return translate(where, _ClientDialect())


def _point(record: Any, with_vectors: bool) -> StoredPoint:
    dense = sparse = None
    if with_vectors and isinstance(record.vector, dict):
        raw = record.vector.get(DENSE)
        dense = list(raw) if raw is not None else None
        sv = record.vector.get(SPARSE)
        if sv is not None:
            sparse = (list(sv.indices), list(sv.values))
    return StoredPoint(id=str(record.id), payload=dict(record.payload or {}), dense=dense, sparse=sparse)


class QdrantClientBackend:
    """One collection on a Qdrant server (or qdrant-client's local mode).

    qdrant-client's local mode is pure Python and not thread-safe (points are lost under
    concurrent writers), so calls into it are serialised; a real server needs no lock.
    """

    name = "qdrant"

    def __init__(
        self, client: QdrantClient, collection_name: str = DEFAULT_COLLECTION, *,
        keyword_fields: Sequence[str] = (), owns_client: bool = True,
    ) -> None:
        self.client = client
        self.collection = collection_name
        self.keyword_fields = tuple(keyword_fields)
        self._owns_client = owns_client
        self._local = type(getattr(client, "_client", None)).__name__ == "QdrantLocal"
        # One lock per client, not per backend: two stores sharing a local client would
        # otherwise call into it at once.
        with _LOCKS_GUARD:
            self._lock = _LOCKS.setdefault(client, threading.RLock())

    @contextlib.contextmanager
    def _guard(self) -> Iterator[None]:
        if self._local:
            with self._lock:
                yield
        else:
            yield

    def stored_meta(self) -> dict[str, Any] | None:
        with self._guard():
            if not self.client.collection_exists(self.collection):
                return None
            return dict(self.client.get_collection(self.collection).config.metadata or {}) or None

    def setup(self, *, dim: int, meta: dict[str, Any]) -> dict[str, Any]:
        with self._guard():
            if self.client.collection_exists(self.collection):
                info = self.client.get_collection(self.collection)
                vectors = info.config.params.vectors
                size = vectors[DENSE].size if isinstance(vectors, dict) and DENSE in vectors else None
                stored = dict(info.config.metadata or {})
                if size != dim:
                    raise SchemaMismatchError(
                        f"collection {self.collection!r} holds {size}-dimensional vectors from "
                        f"{stored.get('embedder')!r}; the embedder given makes {dim}. Use the same "
                        "embedder, or another collection_name."
                    )
                return stored or dict(meta, dim=dim)
            stored = dict(meta, dim=dim)
            self.client.create_collection(
                self.collection,
                vectors_config={DENSE: models.VectorParams(size=dim, distance=models.Distance.COSINE)},
                sparse_vectors_config={SPARSE: models.SparseVectorParams(modifier=models.Modifier.IDF)},
                hnsw_config=models.HnswConfigDiff(
                    m=HNSW_M, ef_construct=HNSW_EF_CONSTRUCT, full_scan_threshold=FULL_SCAN_KB,
                    payload_m=HNSW_PAYLOAD_M),
                metadata=stored,
            )
            with warnings.catch_warnings():
                # Local mode ignores payload indexes and says so; a server uses them.
                warnings.simplefilter("ignore", UserWarning)
                self.client.create_payload_index(
                    self.collection,
                    "namespace",
                    models.KeywordIndexParams(type=models.KeywordIndexType.KEYWORD, is_tenant=True),
                )
                for name in KEYWORD_FIELDS + self.keyword_fields:
                    self.client.create_payload_index(self.collection, name, models.KeywordIndexParams(
                        type=models.KeywordIndexType.KEYWORD, enable_hnsw=False))
                for name in FLOAT_FIELDS:
                    self.client.create_payload_index(self.collection, name, models.FloatIndexParams(
                        type=models.FloatIndexType.FLOAT, enable_hnsw=False))
                self.client.create_payload_index(self.collection, "content", models.PayloadSchemaType.TEXT)
            return stored

    def upsert(self, points: Sequence[StoredPoint], *, only_if: Where | None = None) -> None:
        if not points:
            return
        structs = []
        for p in points:
            vector: dict[str, Any] = {}
            if p.dense is not None:
                vector[DENSE] = p.dense
            if p.sparse is not None:
                vector[SPARSE] = models.SparseVector(indices=p.sparse[0], values=p.sparse[1])
            structs.append(models.PointStruct(id=p.id, vector=vector, payload=p.payload))
        with self._guard():
            self.client.upsert(
                self.collection, points=structs, wait=True,
                update_filter=None if only_if is None else to_filter(only_if),
            )

    def retrieve(self, ids: Sequence[str], *, with_vectors: bool = False) -> list[StoredPoint]:
        if not ids:
            return []
        with self._guard():
            records = self.client.retrieve(
                self.collection, ids=list(ids), with_payload=True, with_vectors=with_vectors
            )
        return [_point(r, with_vectors) for r in records]

    def query_batch(self, queries: Sequence[Query], *, cached: bool = False) -> list[list[Hit]]:
        # Ordered fetches: equal keys by ascending id, as a snapshot gives them.
        results = read_in_key_order(queries, self._points)
        return [
            [Hit(_point(r, q.with_vectors), 0.0 if isinstance(q, FetchQuery) else float(r.score)) for r in points]
            for q, points in zip(queries, results)
        ]

    def _points(self, queries: Sequence[Query]) -> list[list[Any]]:
        """The engine's scored points answering ``queries``, in one round trip."""
        filters: dict[Where, models.Filter] = {}  # a batch often repeats one filter
        requests = []
        for q in queries:
            flt = filters.get(q.where)
            if flt is None:
                flt = filters[q.where] = to_filter(q.where)
            using: str | None = None
            if isinstance(q, FetchQuery):
                query: Any = None if q.order_by is None else models.OrderByQuery(order_by=models.OrderBy(
                    key=q.order_by, direction=models.Direction.DESC if q.descending else models.Direction.ASC))
            elif isinstance(q, DenseQuery):
                query, using = q.vector, DENSE
            else:
                query, using = models.SparseVector(indices=q.indices, values=q.values), SPARSE
            prefetch = None
            if isinstance(q, SparseQuery) and q.rescore is not None:
                prefetch = models.Prefetch(query=query, using=using, filter=flt, limit=q.limit)
                query, using = q.rescore, DENSE
            requests.append(
                models.QueryRequest(
                    query=query,
                    using=using,
                    prefetch=prefetch,
                    filter=flt,
                    limit=q.limit,
                    with_payload=q.payload if isinstance(q.payload, bool) else list(q.payload),
                    with_vector=vectors_wanted(q),
                    score_threshold=getattr(q, "min_score", None),
                )
            )
        with self._guard():
            responses = self.client.query_batch_points(self.collection, requests=requests)
        return [resp.points for resp in responses]

    def scroll(
        self,
        where: Where,
        *,
        limit: int,
        order_by: str | None = None,
        descending: bool = True,
        with_vectors: bool = False,
        offset: Any = None,
    ) -> tuple[list[StoredPoint], Any]:
        order = None
        if order_by is not None:
            order = models.OrderBy(
                key=order_by,
                direction=models.Direction.DESC if descending else models.Direction.ASC,
            )
        with self._guard():
            records, next_offset = self.client.scroll(
                self.collection,
                scroll_filter=to_filter(where),
                limit=limit,
                offset=offset,
                order_by=order,
                with_payload=True,
                with_vectors=with_vectors,
            )
        return [_point(r, with_vectors) for r in records], (
            None if next_offset is None else str(next_offset)
        )

    def count(self, where: Where) -> int:
        with self._guard():
            return self.client.count(self.collection, count_filter=to_filter(where), exact=True).count

    def set_payload(self, ids: Sequence[str], payload: dict[str, Any]) -> None:
        if ids:
            with self._guard():
                self.client.set_payload(self.collection, payload=payload, points=list(ids), wait=True)

    def set_payloads(self, updates: Sequence[tuple[Sequence[str], dict[str, Any]]]) -> None:
        operations = [models.SetPayloadOperation(set_payload=models.SetPayload(payload=payload, points=list(ids)))
                      for ids, payload in updates if ids]
        if operations:
            with self._guard():  # one round trip for them all
                self.client.batch_update_points(self.collection, operations, wait=True)

    def delete(self, ids: Sequence[str]) -> None:
        if ids:
            with self._guard():
                self.client.delete(
                    self.collection, points_selector=models.PointIdsList(points=list(ids)), wait=True
                )

    def delete_where(self, where: Where) -> int:
        flt = to_filter(where)
        with self._guard():
            n = self.client.count(self.collection, count_filter=flt, exact=True).count
            if n:
                self.client.delete(
                    self.collection, points_selector=models.FilterSelector(filter=flt), wait=True
                )
        return n

    def sibling(self, name: str, *, keyword_fields: Sequence[str] = ()) -> "QdrantClientBackend":
        if not name.isidentifier():
            raise ValueError(f"a side collection's name is an identifier, not {name!r}")
        side = QdrantClientBackend(
            self.client, f"{self.collection}__{name}", keyword_fields=keyword_fields, owns_client=False
        )
        side._lock = self._lock  # local mode is not thread-safe: one lock per client
        return side

    def field_indexes(self) -> dict[str, str]:
        with self._guard():
            schema = self.client.get_collection(self.collection).payload_schema or {}
        return {key: str(getattr(info.data_type, "value", info.data_type)).lower() for key, info in schema.items()}

    def create_field_index(self, key: str, kind: str) -> None:
        schema = {"keyword": models.PayloadSchemaType.KEYWORD, "float": models.PayloadSchemaType.FLOAT}[kind]
        with self._guard(), warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)  # local mode ignores payload indexes
            self.client.create_payload_index(self.collection, key, schema, wait=True)

    def facet(self, key: str, where: Where, *, limit: int, exact: bool = True) -> list[tuple[str, int]]:
        with self._guard():
            response = self.client.facet(
                self.collection, key, facet_filter=to_filter(where), limit=limit, exact=exact
            )
        return [(str(hit.value), int(hit.count)) for hit in response.hits]

    def optimize(self) -> bool:
        return False  # a Qdrant server's optimizers index in the background

    def close(self) -> None:
        if not self._owns_client:
            return  # a sibling shares its client with the store's main collection
        with self._guard():
            self.client.close()
