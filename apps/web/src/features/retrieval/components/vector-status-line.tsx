import type { VectorStatus } from "@sage/contracts/retrieval";
import { DetailsDisclosure } from "@/components/ui/details-disclosure";
import { vectorStatusWords } from "../vector-status-words";

/** The search index's state in words, and the embedder's figures behind Details (decision 038). */
export function VectorStatusLine({ status }: { status: VectorStatus }) {
  const { summary, details } = vectorStatusWords(status);
  return (
    <div className="text-xs text-muted-foreground" data-testid="vector-status">
      <p role="status">{summary}</p>
      <DetailsDisclosure>
        <p className="font-mono">{details}</p>
      </DetailsDisclosure>
    </div>
  );
}
