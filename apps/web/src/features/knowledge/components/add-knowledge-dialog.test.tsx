import { UNSUPPORTED_FILE_TYPE_MESSAGE, type KnowledgeItem } from "@sage/contracts/knowledge";
import { screen, waitFor, within } from "@testing-library/react";
import { useState } from "react";
import { beforeEach, describe, expect, it } from "vitest";
import { errorReply, fakeApi } from "@/test/fake-api";
import { fakeUploads } from "@/test/fake-uploads";
import { renderWithProviders } from "@/test/render-with-providers";
import { shownToasts } from "@/test/shown-toasts";
import { AddKnowledgeDialog } from "./add-knowledge-dialog";

const FOLDERS = "/api/folders?userId=3";
const item = (id: number, name: string, type: KnowledgeItem["type"], extra: Partial<KnowledgeItem> = {}): KnowledgeItem => ({
  id,
  name,
  type,
  path: name,
  description: "",
  content: "",
  url: null,
  parentId: 0,
  userId: 3,
  conversationId: 0,
  size: 0,
  status: "ready",
  statusReason: null,
  chunkCount: 0,
  createdAt: "2031-03-04T09:00:00.000Z",
  ...extra,
});
const boardFolder = item(40, "Board", "folder");
const pdf = (name: string) => new File(["%PDF-1.4 minutes"], name, { type: "application/pdf" });

/** The knowledge page's part: a button that opens the dialog, and the dialog. */
function KnowledgePage() {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" onClick={() => setOpen(true)}>
        Add Knowledge
      </button>
      <AddKnowledgeDialog open={open} onOpenChange={setOpen} conversationId={0} />
    </>
  );
}

async function openDialog() {
  const api = fakeApi().on("GET", FOLDERS, Response.json([{ ...boardFolder, items: [] }]));
  const view = renderWithProviders(<KnowledgePage />);
  await view.user.click(screen.getByRole("button", { name: "Add Knowledge" }));
  const dialog = () => screen.getByRole("dialog");
  return { ...view, api, dialog };
}

const pendingItems = () =>
  within(screen.getByRole("list", { name: "Pending items" }))
    .getAllByRole("listitem")
    .map((entry) => entry.textContent);
const next = () => screen.getByRole("button", { name: "Next" });
const descriptionBox = () => screen.getByRole("textbox", { name: "Description" });
/** Replaces the suggested description (once it is in) with the user's own words. */
async function describeAs(user: Awaited<ReturnType<typeof openDialog>>["user"], text: string) {
  await waitFor(() => expect(descriptionBox()).not.toHaveProperty("value", ""));
  await user.clear(descriptionBox());
  await user.type(descriptionBox(), text);
}

beforeEach(() => window.localStorage.setItem("userId", "3"));

describe("AddKnowledgeDialog: choosing what to add", () => {
  it("keeps the files of supported types, tells the user about the others, and lets one be removed", async () => {
    const { user } = await openDialog();
    await user.upload(screen.getByLabelText("Choose files"), [pdf("board-pack.pdf"), new File(["MZ"], "setup.exe")]);
    expect(shownToasts()).toEqual([{ title: "Unsupported File Type", description: UNSUPPORTED_FILE_TYPE_MESSAGE, variant: "destructive" }]);
    expect(pendingItems()).toEqual(["board-pack.pdf"]);

    await user.upload(screen.getByLabelText("Choose files"), [pdf("minutes.pdf")]);
    expect(pendingItems()).toEqual(["board-pack.pdf", "minutes.pdf"]);
    await user.click(screen.getByRole("button", { name: "Remove board-pack.pdf" }));
    expect(pendingItems()).toEqual(["minutes.pdf"]);
  });

  it("says there is nothing to add when Next is pressed with nothing chosen", async () => {
    const { user } = await openDialog();
    await user.click(next());
    expect(shownToasts()).toEqual([
      { title: "Nothing to add", description: "No files, URLs, or notes were added. Please add at least one item.", variant: "destructive" },
    ]);
    expect(screen.getByRole("heading", { name: "Add Knowledge" })).toBeTruthy();
  });

  it("lets a URL or a note replace the files chosen, one kind at a time", async () => {
    const { user } = await openDialog();
    await user.upload(screen.getByLabelText("Choose files"), [pdf("board-pack.pdf")]);
    expect(screen.getByRole("button", { name: "Add URL" })).toHaveProperty("disabled", true);
    await user.click(screen.getByRole("textbox", { name: "Add URL" }));
    await user.paste("https://example.com/q3-results");
    await user.click(screen.getByRole("button", { name: "Add URL" }));
    expect(pendingItems()).toEqual(["https://example.com/q3-results"]);

    await user.type(screen.getByRole("textbox", { name: "Add Note" }), "Call at 9");
    await user.click(screen.getByRole("button", { name: "Add Note" }));
    expect(pendingItems()).toEqual(["Call at 9"]);
  });
});

describe("AddKnowledgeDialog: the required description", () => {
  it("asks for a description of each item in turn, and Next waits for one", async () => {
    const { user } = await openDialog();
    await user.upload(screen.getByLabelText("Choose files"), [pdf("board-pack.pdf"), pdf("minutes.pdf")]);
    await user.click(next());

    expect(screen.getByRole("heading", { name: "Add a description" })).toBeTruthy();
    expect(screen.getByText("Item 1 of 2: board-pack.pdf")).toBeTruthy();
    await waitFor(() => expect(descriptionBox()).toHaveProperty("value", "Board pack"));
    await user.clear(descriptionBox());
    expect(screen.getByText("A description is required.")).toBeTruthy();
    expect(next()).toHaveProperty("disabled", true);
    await user.type(descriptionBox(), "   ");
    expect(next()).toHaveProperty("disabled", true);

    await user.clear(descriptionBox());
    await user.type(descriptionBox(), "The March board pack");
    expect(screen.queryByText("A description is required.")).toBeNull();
    await user.click(next());
    expect(screen.getByText("Item 2 of 2: minutes.pdf")).toBeTruthy();
    expect(descriptionBox()).toHaveProperty("value", "Minutes");

    // Back keeps what was written.
    await user.click(screen.getByRole("button", { name: "Back" }));
    expect(descriptionBox()).toHaveProperty("value", "The March board pack");
  });

  it("pre-fills each description from the file's own text, and one click uses it for all remaining files", async () => {
    const { user } = await openDialog();
    const notes = new File(["# Zebra census 2031\n\n41 zebras were counted."], "census.md", { type: "text/markdown" });
    const memo = new File(["The board met on Monday. It approved the budget."], "memo.txt", { type: "text/plain" });
    await user.upload(screen.getByLabelText("Choose files"), [notes, memo, pdf("q3_results.pdf"), pdf("q4_results.pdf")]);
    await user.click(next());
    await waitFor(() => expect(descriptionBox()).toHaveProperty("value", "Zebra census 2031"));
    expect(screen.queryByRole("button", { name: "Use this description for all remaining files" })).toBeTruthy();
    await user.click(next());
    await waitFor(() => expect(descriptionBox()).toHaveProperty("value", "The board met on Monday."));
    await user.click(next());
    await waitFor(() => expect(descriptionBox()).toHaveProperty("value", "Q3 results"));
    await user.clear(descriptionBox());
    await user.type(descriptionBox(), "Quarterly results");
    await user.click(screen.getByRole("button", { name: "Use this description for all remaining files" }));
    expect(await screen.findByRole("heading", { name: "Choose a destination" })).toBeTruthy();
    // Back shows the last file with the description it was given.
    await user.click(screen.getByRole("button", { name: "Back" }));
    expect(screen.getByText("Item 4 of 4: q4_results.pdf")).toBeTruthy();
    expect(descriptionBox()).toHaveProperty("value", "Quarterly results");
    expect(screen.queryByRole("button", { name: "Use this description for all remaining files" })).toBeNull();
  });

  it("keeps each description with its item when an item is removed on the way back", async () => {
    const { user } = await openDialog();
    await user.upload(screen.getByLabelText("Choose files"), [pdf("board-pack.pdf"), pdf("minutes.pdf")]);
    await user.click(next());
    await describeAs(user, "Board pack");
    await user.click(next());
    await describeAs(user, "Minutes of March");
    await user.click(screen.getByRole("button", { name: "Back" }));
    await user.click(screen.getByRole("button", { name: "Back" }));
    await user.click(screen.getByRole("button", { name: "Remove board-pack.pdf" }));
    await user.click(next());

    expect(screen.getByText("minutes.pdf")).toBeTruthy();
    expect(descriptionBox()).toHaveProperty("value", "Minutes of March");
  });

  it("shows a note's text beside its description", async () => {
    const { user } = await openDialog();
    await user.type(screen.getByRole("textbox", { name: "Add Note" }), "Call at 9");
    await user.click(screen.getByRole("button", { name: "Add Note" }));
    await user.click(next());
    expect(screen.getByLabelText("Note preview").textContent).toBe("Call at 9");
    expect(screen.getByText("Location: Knowledge Base")).toBeTruthy();
  });
});

/** Chooses `files`, describes each, and arrives at the destination step. */
async function describeFiles(user: Awaited<ReturnType<typeof openDialog>>["user"], files: File[], description: string) {
  await user.upload(screen.getByLabelText("Choose files"), files);
  await user.click(next());
  for (let index = 0; index < files.length; index += 1) {
    await describeAs(user, description);
    await user.click(next());
  }
  await screen.findByRole("heading", { name: "Choose a destination" });
}

describe("AddKnowledgeDialog: adding", () => {
  it("uploads each file with its description into the folder opened, says so, and closes", async () => {
    const { user } = await openDialog();
    const uploads = fakeUploads(({ fields }) => ({
      status: 200,
      body: { status: "success", file: item(41, fields.file!, "file", { parentId: 40 }), chunks_processed: 3, processingResult: { status: "success" } },
    }));
    await describeFiles(user, [pdf("board-pack.pdf")], "Board pack");
    await user.click(await screen.findByRole("button", { name: /Board/ }));
    await user.click(screen.getByRole("button", { name: "Add here" }));

    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    expect(uploads).toEqual([
      {
        method: "POST",
        url: "/api/upload",
        fields: { userId: "3", conversationId: "0", parentId: "40", path: "Board/board-pack.pdf", description: "Board pack", file: "board-pack.pdf" },
      },
    ]);
    expect(shownToasts()).toEqual([{ title: "File uploaded", description: "board-pack.pdf was added (3 chunks processed).", variant: "default" }]);

    // The next opening starts afresh.
    await user.click(screen.getByRole("button", { name: "Add Knowledge" }));
    expect(screen.queryByRole("list", { name: "Pending items" })).toBeNull();
  });

  it("shows the server's reason when an upload fails, and keeps the dialog open with the items", async () => {
    const { user } = await openDialog();
    fakeUploads(() => ({ status: 413, statusText: "Payload Too Large", body: { error: "The document is too large to process", code: "too_large" } }));
    await describeFiles(user, [pdf("archive-scan.pdf")], "Old scans");
    await user.click(screen.getByRole("button", { name: "Add here" }));

    await waitFor(() =>
      expect(shownToasts()).toEqual([{ title: "Upload failed", description: "The document is too large to process", variant: "destructive" }]),
    );
    expect(screen.getByRole("heading", { name: "Choose a destination" })).toBeTruthy();
    expect(screen.getByRole("button", { name: "Add here" })).toHaveProperty("disabled", false);
  });

  it("shows why a link was refused", async () => {
    const { user, api } = await openDialog();
    api.on("POST", "/api/process_url", errorReply(400, "Bad Request", "Only http and https links can be added"));
    await user.click(screen.getByRole("textbox", { name: "Add URL" }));
    await user.paste("ftp://example.com/file");
    await user.click(screen.getByRole("button", { name: "Add URL" }));
    await user.click(next());
    await describeAs(user, "Archive");
    await user.click(next());
    await user.click(await screen.findByRole("button", { name: "Add here" }));

    await waitFor(() =>
      expect(shownToasts()).toEqual([{ title: "URL Processing Failed", description: "Only http and https links can be added", variant: "destructive" }]),
    );
    expect(api.requests("POST", "/api/process_url").map((request) => request.body)).toEqual([
      { url: "ftp://example.com/file", userId: "3", conversationId: 0, parentId: 0, description: "Archive" },
    ]);
    expect(screen.getByRole("dialog")).toBeTruthy();
  });
});

describe("AddKnowledgeDialog: closing", () => {
  it("asks before discarding items not added yet", async () => {
    const { user } = await openDialog();
    await user.upload(screen.getByLabelText("Choose files"), [pdf("board-pack.pdf")]);
    await user.click(screen.getByRole("button", { name: "Cancel" }));
    const confirm = screen.getByRole("dialog", { name: "Discard changes?" });
    expect(within(confirm).getByText("You have items that were not added yet. Close and discard them?")).toBeTruthy();

    await user.click(within(confirm).getByRole("button", { name: "Keep editing" }));
    expect(pendingItems()).toEqual(["board-pack.pdf"]);

    await user.click(screen.getByRole("button", { name: "Cancel" }));
    await user.click(screen.getByRole("button", { name: "Discard" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    await user.click(screen.getByRole("button", { name: "Add Knowledge" }));
    expect(screen.queryByRole("list", { name: "Pending items" })).toBeNull();
  });

  it("closes at once when nothing was chosen", async () => {
    const { user } = await openDialog();
    await user.click(screen.getByRole("button", { name: "Cancel" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    expect(screen.queryByText("Discard changes?")).toBeNull();
  });
});
