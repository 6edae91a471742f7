import { describe, expect, it } from "vitest";
import { filterAndSortConversations } from "./conversation-list-view";

const conversations = [
  { id: 1, name: "beta plan", createdAt: "2025-03-01T10:00:00.000Z" },
  { id: 2, name: "", createdAt: "2025-03-05T10:00:00.000Z" },
  { id: 3, name: "Alpha Review", createdAt: "2025-03-03T10:00:00.000Z" },
  { id: 4, name: "Zeta", createdAt: "2025-03-02T10:00:00.000Z" },
];
const names = (list: { name: string }[]) => list.map((conversation) => conversation.name);

describe("filterAndSortConversations", () => {
  it("sorts newest first by default", () => {
    expect(names(filterAndSortConversations(conversations, "", "recent"))).toEqual(["", "Alpha Review", "Zeta", "beta plan"]);
  });
  it("sorts A-Z case-insensitively with Untitled standing in for empty names", () => {
    expect(names(filterAndSortConversations(conversations, "", "name"))).toEqual(["Alpha Review", "beta plan", "", "Zeta"]);
  });
  it("filters by a case-insensitive substring of the name", () => {
    expect(names(filterAndSortConversations(conversations, "  ALPHA ", "recent"))).toEqual(["Alpha Review"]);
    expect(filterAndSortConversations(conversations, "nothing", "recent")).toEqual([]);
  });
  it("keeps pinned conversations on top, in the server's order, whatever the sort", () => {
    const withPins = conversations.map((conversation) => (conversation.id === 1 || conversation.id === 4 ? { ...conversation, pinned: true } : conversation));
    expect(names(filterAndSortConversations(withPins, "", "recent"))).toEqual(["beta plan", "Zeta", "", "Alpha Review"]);
    expect(names(filterAndSortConversations(withPins, "", "name"))).toEqual(["beta plan", "Zeta", "Alpha Review", ""]);
  });
});
