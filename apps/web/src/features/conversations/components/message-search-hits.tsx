import type { MessageSearchHit } from "@sage/contracts/conversations";
import { Link } from "wouter";
import { displayName } from "../conversation-list-view";

/** "In messages": each message that holds the search, linked to its place in the conversation. */
export function MessageSearchHits({ hits }: { hits: MessageSearchHit[] }) {
  if (hits.length === 0) return null;
  return (
    <section aria-labelledby="message-hits-heading" className="flex flex-col gap-2">
      <h2 id="message-hits-heading" className="text-sm font-medium text-muted-foreground">
        In messages
      </h2>
      <ul aria-label="Messages found" className="flex flex-col gap-2">
        {hits.map((hit) => (
          <li key={hit.messageId}>
            <Link
              href={`/conversations/${hit.conversationId}?message=${hit.messageId}`}
              className="block rounded-md border px-3 py-2 text-sm hover:bg-accent focus-visible:ring-[3px] focus-visible:ring-ring/50 focus-visible:outline-none"
            >
              <span className="font-medium">{displayName(hit)}</span>
              <span className="text-muted-foreground"> · {hit.role === "user" ? "You" : "SAGE"}</span>
              <span className="mt-1 block break-words text-muted-foreground">{hit.snippet}</span>
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}
