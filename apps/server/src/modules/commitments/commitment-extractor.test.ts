import { describe, expect, it } from "vitest";
import { createFakeLlm } from "../../providers/llm/fake.ts";
import { extractCommitments, normalizeText } from "./commitment-extractor.ts";
import type { CommitmentsRepo, NewCommitment } from "./commitments.repo.ts";

const at = "2026-11-24T09:00:00.000Z";

/** The repo as the extractor uses it: one new document, and what it inserts and marks read. */
function fakeRepo() {
  const inserted: NewCommitment[] = [];
  const scanned: number[] = [];
  const repo = {
    newItems: async () =>
      scanned.includes(7)
        ? []
        : [
            {
              id: 7,
              type: "file",
              name: "Minutes.pdf",
              mimeType: "application/pdf",
              createdAt: at,
              mailFolder: null,
              mailSubject: null,
              mailFrom: null,
              mailTo: null,
              mailDate: null,
              accountSettings: null,
            },
          ],
    newMessages: async () => [],
    hasQuote: async (_userId: number, quote: string) => inserted.some((row) => row.quote === quote),
    insert: async (row: NewCommitment) => void inserted.push(row),
    markScanned: async (_userId: number, _kind: string, id: number) => void scanned.push(id),
  } as unknown as CommitmentsRepo;
  return { repo, inserted, scanned };
}

const pieces = [
  { source: "Minutes.pdf > page 1", content: "Attendees: Anna, Bob." },
  { source: "Minutes.pdf > page 2", content: "Actions.\n> Bob will send the “revised” forecast\n> by Thursday.\nNext meeting in March." },
];
const search = { search: async () => [], itemText: async () => pieces.map((piece) => piece.content).join("\n"), itemPieces: async () => pieces };

describe("extractCommitments", () => {
  it("keeps the page a quote is on, matching it across line breaks, reply marks and typographic quotes", async () => {
    const llm = createFakeLlm();
    const quote = `Bob will send the "revised" forecast by Thursday.`;
    llm.script({
      text: JSON.stringify({
        commitments: [
          { direction: "owed-to-me", kind: "promise", owner: "Bob", counterparty: "Anna", what: "Send the revised forecast", dueDate: "2026-11-26", quote },
        ],
      }),
    });
    const { repo, inserted, scanned } = fakeRepo();
    const outcome = await extractCommitments({ repo, llm, search, now: () => new Date(at), userId: 3, people: async () => [], warn: () => undefined });
    expect(outcome).toEqual({ read: 1, more: false, found: 1 });
    // The direction decides who "me" is, whatever the model wrote as counterparty.
    expect(inserted).toMatchObject([{ sourceKind: "document", itemId: 7, page: 2, owner: "Bob", counterparty: "me", dueDate: "2026-11-26", quote }]);
    expect(scanned).toEqual([7]);
  });

  it("drops an impossible due date and reads nothing twice", async () => {
    const llm = createFakeLlm();
    llm.script({
      text: JSON.stringify({
        commitments: [
          { direction: "mine", kind: "request", owner: "me", counterparty: "Bob", what: "Reply to Bob", dueDate: "2026-02-30", quote: "Attendees: Anna, Bob." },
        ],
      }),
    });
    const { repo, inserted } = fakeRepo();
    await extractCommitments({ repo, llm, search, now: () => new Date(at), userId: 3, people: async () => [], warn: () => undefined });
    expect(inserted).toMatchObject([{ dueDate: null, page: 1 }]);
    expect(await extractCommitments({ repo, llm, search, now: () => new Date(at), userId: 3, people: async () => [], warn: () => undefined })).toEqual({
      read: 0,
      more: false,
      found: 0,
    });
    expect(llm.prompts).toHaveLength(1);
  });

  it("normalizes what a quote is compared on", () => {
    expect(normalizeText("> I’ll send\n>  the deck")).toBe("i'll send the deck");
  });
});
