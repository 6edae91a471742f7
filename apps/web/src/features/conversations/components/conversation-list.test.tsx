import { screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { fakeApi } from "@/test/fake-api";
import { renderWithProviders } from "@/test/render-with-providers";
import { shownToasts } from "@/test/shown-toasts";
import { ConversationList } from "./conversation-list";

const at = "2031-03-04T09:00:00.000Z";
const board = { id: 5, name: "Board prep", createdAt: at };
const file = (id: number, type = "file") => ({ id, name: `f${id}`, type });
const reminder = (id: number) => ({ id, title: `r${id}` });

/** The list with one conversation holding two reminders and a file (and a folder, which is not counted). */
function openList() {
  let listed = [board];
  const api = fakeApi()
    .on("GET", "/api/conversations", () => Response.json(listed))
    .on("GET", "/api/reminders?conversationId=5", Response.json([reminder(1), reminder(2)]))
    .on("GET", "/api/conversations/5/files", Response.json([file(10), file(11, "folder")]))
    .on("DELETE", "/api/conversations/5", () => {
      listed = [];
      return Response.json({ ok: true });
    })
    .on("POST", "/api/conversations/5/restore", () => {
      listed = [board];
      return Response.json(board);
    });
  return { api, ...renderWithProviders(<ConversationList />) };
}

async function askToDelete(user: ReturnType<typeof openList>["user"]) {
  await user.click(await screen.findByRole("button", { name: "Actions for Board prep" }));
  await user.click(await screen.findByRole("menuitem", { name: "Delete" }));
  return screen.findByRole("dialog", { name: "Delete Conversation" });
}

describe("Deleting a conversation", () => {
  it("asks the spec's question, says it can be restored and what goes with it, and never that it cannot be undone", async () => {
    const { user } = openList();
    const dialog = await askToDelete(user);
    expect(within(dialog).getByText("Are you sure you want to delete this conversation? You can restore it from Recently deleted for 30 days.")).toBeTruthy();
    await within(dialog).findByText("2 reminders and 1 file are deleted with it.");
    // Issue 52 item 12: one true sentence, not "cannot be undone" beside "restore within 30 days".
    expect(dialog.textContent).not.toContain("cannot be undone");
  });

  it("offers Undo on the spec's toast, which brings the conversation back", async () => {
    const { user, api } = openList();
    const dialog = await askToDelete(user);
    await user.click(within(dialog).getByRole("button", { name: "Delete" }));
    await waitFor(() =>
      expect(shownToasts()).toEqual([{ title: "Success", description: "Conversation and all related data deleted successfully", variant: "default" }]),
    );
    await screen.findByText("No conversations yet. Start a new one!");
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    await user.click(screen.getByRole("button", { name: "Undo" }));
    await screen.findByRole("link", { name: /Board prep/ });
    expect(api.requests("POST", "/api/conversations/5/restore")).toHaveLength(1);
  });

  it("lists recently deleted conversations with what they hold, and restores one", async () => {
    const { user, api } = openList();
    api.on("GET", "/api/conversations/deleted", () =>
      Response.json(
        api.requests("POST", "/api/conversations/5/restore").length > 0
          ? []
          : [{ ...board, deletedAt: "2031-03-05T10:00:00.000Z", purgeAt: "2031-04-04T10:00:00.000Z", reminderCount: 2, fileCount: 1 }],
      ),
    );
    await screen.findByRole("link", { name: /Board prep/ });
    await user.click(screen.getByRole("button", { name: "Recently deleted" }));
    const dialog = await screen.findByRole("dialog", { name: "Recently deleted" });
    const row = await within(dialog).findByTestId("deleted-conversation");
    expect(row.textContent).toContain("Board prep");
    expect(row.textContent).toContain("Deleted Mar 5, 2031 · 2 reminders, 1 file · gone for good Apr 4, 2031");
    await user.click(within(row).getByRole("button", { name: "Restore Board prep" }));
    await within(dialog).findByText("No recently deleted conversations");
    expect(api.requests("POST", "/api/conversations/5/restore")).toHaveLength(1);
  });
});

describe("Conversation cards", () => {
  it("show the last message's first line under the name, in the grid and the list", async () => {
    fakeApi().on(
      "GET",
      "/api/conversations",
      Response.json([
        { ...board, lastMessage: "The board meets at 9 in room 4." },
        { id: 6, name: "Draft an email to Anna", createdAt: at },
      ]),
    );
    const { user } = renderWithProviders(<ConversationList />);
    const card = await screen.findByRole("link", { name: /Board prep/ });
    expect(within(card).getByTestId("conversation-last-message").textContent).toBe("The board meets at 9 in room 4.");
    expect(within(screen.getByRole("link", { name: /Draft an email to Anna/ })).queryByTestId("conversation-last-message")).toBeNull();
    await user.click(screen.getByRole("button", { name: "List view" }));
    expect(within(screen.getByRole("link", { name: /Board prep/ })).getByTestId("conversation-last-message").textContent).toBe(
      "The board meets at 9 in room 4.",
    );
  });
});

describe("Unread conversations", () => {
  it("mark one a scheduled run wrote into, in the grid and the list", async () => {
    fakeApi().on(
      "GET",
      "/api/conversations",
      Response.json([
        { id: 7, name: "Morning briefing", createdAt: at, lastMessage: "Morning briefing", unread: true },
        { ...board, lastMessage: "Read already" },
      ]),
    );
    const { user } = renderWithProviders(<ConversationList />);
    const unread = await screen.findByRole("link", { name: /Unread: Morning briefing/ });
    expect(within(unread).getByTestId("conversation-unread")).toBeTruthy();
    expect(within(screen.getByRole("link", { name: /Board prep/ })).queryByTestId("conversation-unread")).toBeNull();
    await user.click(screen.getByRole("button", { name: "List view" }));
    expect(within(screen.getByRole("link", { name: /Unread: Morning briefing/ })).getByTestId("conversation-unread")).toBeTruthy();
  });
});

describe("Searching conversations", () => {
  it("finds the words inside messages too, each hit linked to its message", async () => {
    const { user, api } = openList();
    api.on("GET", "/api/conversations/search?q=z%C3%BCrich&limit=20", () =>
      Response.json([{ conversationId: 5, name: "Board prep", messageId: 42, role: "model", createdAt: at, snippet: "The Zürich hotel is booked." }]),
    );
    await screen.findByRole("link", { name: /Board prep/ });
    await user.type(screen.getByRole("searchbox", { name: "Search conversations" }), "zürich");
    // No name holds it, a message does: the message is the result, with no "No conversations found" above it (issue 52 item 8).
    const found = await screen.findByRole("list", { name: "Messages found" });
    const hit = within(found).getByRole("link");
    expect(hit.textContent).toBe("Board prep · SAGEThe Zürich hotel is booked.");
    expect(hit.getAttribute("href")).toBe("/conversations/5?message=42");
    expect(screen.queryByText("No conversations found matching your search")).toBeNull();
    // One request once typing paused, not one per letter.
    expect(api.requests("GET", "/api/conversations/search?q=z%C3%BCrich&limit=20")).toHaveLength(1);
  });

  it("says the spec's empty text once neither a name nor a message holds the words", async () => {
    const { user, api } = openList();
    api.on("GET", "/api/conversations/search?q=osprey&limit=20", () => Response.json([]));
    await screen.findByRole("link", { name: /Board prep/ });
    await user.type(screen.getByRole("searchbox", { name: "Search conversations" }), "osprey");
    await screen.findByText("No conversations found matching your search");
    expect(screen.queryByRole("list", { name: "Messages found" })).toBeNull();
  });
});

describe("Pinning a conversation", () => {
  it("pins from the card's menu: the server is told, and the card moves to the top marked Pinned", async () => {
    let listed: Array<{ id: number; name: string; createdAt: string; pinned?: boolean }> = [
      { id: 6, name: "Newer", createdAt: "2031-03-05T09:00:00.000Z" },
      board,
    ];
    const api = fakeApi()
      .on("GET", "/api/conversations", () => Response.json(listed))
      .on("PATCH", "/api/conversations/5", () => {
        listed = [{ ...board, pinned: true }, listed[0]!];
        return Response.json({ ...board, pinned: true });
      });
    const { user } = renderWithProviders(<ConversationList />);
    await screen.findByText("Newer");
    expect(screen.getAllByTestId("conversation-name").map((name) => name.textContent)).toEqual(["Newer", "Board prep"]);
    await user.click(screen.getByRole("button", { name: "Actions for Board prep" }));
    await user.click(await screen.findByRole("menuitem", { name: "Pin to top" }));
    expect(api.requests("PATCH", "/api/conversations/5").map((request) => request.body)).toEqual([{ pinned: true }]);
    await waitFor(() => expect(screen.getAllByTestId("conversation-name").map((name) => name.textContent)).toEqual(["Board prep", "Newer"]));
    expect(within(screen.getAllByTestId("conversation-item")[0]!).getByRole("img", { name: "Pinned" })).toBeTruthy();
    await user.click(screen.getByRole("button", { name: "Actions for Board prep" }));
    expect(await screen.findByRole("menuitem", { name: "Unpin" })).toBeTruthy();
  });
});
