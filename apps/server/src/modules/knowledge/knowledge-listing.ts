import { setImmediate as nextTurn } from "node:timers/promises";
import { sql, type ExpressionBuilder, type Kysely, type RawBuilder } from "kysely";
import type { Store } from "../../store/open-store.ts";
import type { Argument, PreparedQuery } from "../../store/prepared-query.ts";
import type { Database, KnowledgeItemType } from "../../store/schema.ts";

export type ListFilter = { conversationId?: number | null; parentId?: number | null };
const filterKey = (value: number | null | undefined) => (value === undefined ? "any" : value === null ? "none" : "id");
// Rows a listing page holds: each page is one string of about 160 KB. Larger pages (2,000 rows) grew the server by
// 47 MB listing 300,000 items, 200-500 by 39-43 MB, nearly all of it V8's young generation reaching its full size.
const LIST_PAGE = 300;
/** `ORDER BY type DESC`: the listing walks the types in this order, each by (name, id). */
const LISTING_TYPE_ORDER: KnowledgeItemType[] = ["url", "note", "folder", "file"];
/** An item's text, from the listing's join of knowledge_item_texts as `texts` ('' when it has none). */
const TEXT = sql<string>`coalesce(texts.content, '')`;

/** One item as the API's JSON (toApiItem's fields, in its order), built by the database. */
const itemJson = (build: "json_object" | "json_build_object", pages: (column: string) => RawBuilder<unknown>) => sql<string>`${sql.raw(build)}(
  'id', id, 'name', name, 'type', type, 'path', path, 'description', description, 'content', ${TEXT}, 'url', url,
  'parentId', coalesce(parent_id, 0), 'userId', user_id, 'conversationId', coalesce(conversation_id, 0), 'size', size,
  'status', status, 'statusReason', status_reason, 'chunkCount', chunk_count,
  'ocrPages', ${pages("ocr_pages")}, 'ocrFailedPages', ${pages("ocr_failed_pages")}, 'createdAt', created_at)`;
const SQLITE_ITEM_JSON = itemJson("json_object", (column) => sql`json(${sql.ref(column)})`);
const POSTGRES_ITEM_JSON = itemJson("json_build_object", (column) => sql`${sql.ref(column)}::json`);

/** The ids of deleted conversations (few: the partial index conversations_deleted holds only them). */
export const deletedConversations = (eb: ExpressionBuilder<Database, "knowledgeItems">) =>
  eb.selectFrom("conversations").select("conversations.id").where("conversations.deletedAt", "is not", null);

type ListPage = { json: string | null; count: number };
type ListKey = { name: string; id: number };
/** A listing's two queries. Arguments: user, type, after name, after id, page size (or the offset of the page's last row), conversation, parent. */
interface ListQueries {
  page(...args: unknown[]): Promise<ListPage | undefined>;
  lastKey(...args: unknown[]): Promise<ListKey | undefined>;
}

/**
 * The user's items as the API's JSON array, a page at a time. A page is ONE string: each row's API JSON made by the
 * database and joined there in the listing's order, with a second, index-only query for the key to continue after
 * the page's last row. Reading 15 columns per row into JS values cost far more than the query (300,000 items: 111 MB
 * on SQLite); a string and an object per row still grew an idle server by 118 MB while it listed 300,000 items.
 */
export function createItemListing(store: Pick<Store, "db"> & Partial<Pick<Store, "prepare">>) {
  const { db } = store;
  const pageRows = (filter: ListFilter, argument: Argument) => {
    let rows = db
      .selectFrom("knowledgeItems")
      .leftJoin("knowledgeItemTexts as texts", "texts.itemId", "knowledgeItems.id")
      .where("userId", "=", argument<number>(0))
      .where("type", "=", argument<KnowledgeItemType>(1))
      .where((eb) => eb(eb.refTuple("name", "id"), ">", eb.tuple(argument<string>(2), argument<number>(3))));
    if (filter.conversationId === null) rows = rows.where("conversationId", "is", null);
    else if (filter.conversationId !== undefined) rows = rows.where("conversationId", "=", argument<number>(5));
    // A deleted conversation's items are kept with it (restorable, decision 035) but not listed.
    else rows = rows.where((eb) => eb.or([eb("conversationId", "is", null), eb("conversationId", "not in", deletedConversations(eb))]));
    if (filter.parentId === null) rows = rows.where("parentId", "is", null);
    else if (filter.parentId !== undefined) rows = rows.where("parentId", "=", argument<number>(6));
    return rows.orderBy("name").orderBy("id");
  };
  const pageQuery = (filter: ListFilter, argument: Argument, kysely: Kysely<Database>) => {
    const postgres = !store.prepare;
    const page = pageRows(filter, argument)
      .select([(postgres ? POSTGRES_ITEM_JSON : SQLITE_ITEM_JSON).as("json"), "name", "id"])
      .limit(argument<number>(4))
      .as("page");
    const joined = postgres ? sql<string | null>`string_agg(json::text, ',' ORDER BY name, id)` : sql<string | null>`group_concat(json, ',' ORDER BY name, id)`;
    return kysely.selectFrom(page).select([joined.as("json"), sql<number>`count(*)`.as("count")]);
  };
  const lastKeyQuery = (filter: ListFilter, argument: Argument) => pageRows(filter, argument).select(["name", "id"]).limit(1).offset(argument<number>(4));

  const cache = new Map<string, ListQueries>();
  const queriesFor = (filter: ListFilter): ListQueries => {
    const key = `${filterKey(filter.conversationId)}:${filterKey(filter.parentId)}`;
    let queries = cache.get(key);
    if (queries) return queries;
    if (store.prepare) {
      const page: PreparedQuery<ListPage> = store.prepare((argument) => pageQuery(filter, argument, db));
      const lastKey: PreparedQuery<ListKey> = store.prepare((argument) => lastKeyQuery(filter, argument));
      queries = { page: async (...args) => page.get(...args), lastKey: async (...args) => lastKey.get(...args) };
    } else {
      const valueOf = (args: unknown[]) => (<T>(index: number) => args[index] as T) as Argument;
      queries = {
        page: (...args) => pageQuery(filter, valueOf(args), db).executeTakeFirst(),
        lastKey: (...args) => lastKeyQuery(filter, valueOf(args)).executeTakeFirst(),
      };
    }
    cache.set(key, queries);
    return queries;
  };

  /**
   * The user's items as the API's JSON array (types in the order of `ORDER BY type DESC`, then name and id, through
   * the listing index), yielding between pages so a huge list never holds the server.
   */
  return async function* listJson(userId: number, filter: ListFilter, pageSize = LIST_PAGE): AsyncGenerator<string> {
    const queries = queriesFor(filter);
    const scope = [filter.conversationId ?? 0, filter.parentId ?? 0];
    let first = true;
    yield "[";
    for (const type of LISTING_TYPE_ORDER) {
      for (let after = { name: "", id: 0 }; ;) {
        const page = await queries.page(userId, type, after.name, after.id, pageSize, ...scope);
        if (!page?.json) break; // no rows: the aggregate gives NULL
        yield first ? page.json : `,${page.json}`;
        first = false;
        if (Number(page.count) < pageSize) break;
        const last = await queries.lastKey(userId, type, after.name, after.id, pageSize - 1, ...scope);
        if (!last) break;
        after = last;
        await nextTurn();
      }
    }
    yield "]";
  };
}
