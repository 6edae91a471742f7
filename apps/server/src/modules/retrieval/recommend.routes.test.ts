import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { RECOMMENDATION_THRESHOLD } from "@sage/contracts/retrieval";
import { createTestApp, type TestApp } from "../../test/test-app.ts";
import { contentPreview } from "./content-preview.ts";
import { seedConversation, seedKnowledge } from "./retrieval-test-helpers.ts";

let t: TestApp;
let cookie: string;
const DEMO_USER = 3;
beforeEach(async () => {
  t = await createTestApp();
  cookie = await t.login();
});
afterEach(async () => t.close());

const recommend = (payload: object) => t.app.inject({ method: "POST", url: "/api/recommend-files", headers: { cookie }, payload });

describe("POST /api/recommend-files", () => {
  it("folds chunks into one scored entry per file; a file about the text clears 0.4, a passing mention does not", async () => {
    const conversation = await seedConversation(t.store.db, DEMO_USER);
    await seedKnowledge(t, {
      userId: DEMO_USER,
      conversationId: conversation,
      name: "board-meeting-agenda.txt",
      chunks: ["Board meeting agenda: quarterly budget review, hiring plan, product roadmap.", "Budget review owners and hiring plan approvals."],
    });
    await seedKnowledge(t, {
      userId: DEMO_USER,
      name: "travel.txt",
      chunks: ["Flight to Lisbon on Monday; hotel near the river. Remember the agenda."],
    });
    for (let index = 0; index < 6; index++) {
      await seedKnowledge(t, { userId: DEMO_USER, name: `filler-${index}.txt`, chunks: [`Unrelated filler text number ${index} about gardening.`] });
    }

    const response = await recommend({ conversation_id: conversation, query_text: "prepare the budget review for the board meeting", limit: 5 });
    expect(response.statusCode).toBe(200);
    const files = response.json() as { file_id: number; filename: string; score: number; content_preview: string }[];
    expect(files[0]!.filename).toBe("board-meeting-agenda.txt");
    expect(files[0]!.score).toBeGreaterThanOrEqual(RECOMMENDATION_THRESHOLD);
    expect(files[0]!.content_preview).toContain("Board meeting agenda");
    expect(files.filter((file) => file.filename === "board-meeting-agenda.txt")).toHaveLength(1);
    const travel = files.find((file) => file.filename === "travel.txt");
    expect(travel === undefined || travel.score < RECOMMENDATION_THRESHOLD).toBe(true);
  });

  it("answers blank text with nothing and another user's conversation with a 404", async () => {
    expect((await recommend({ conversation_id: 0, query_text: "   " })).json()).toEqual([]);
    const stranger = await t.loginAsNewUser();
    const theirs = await seedConversation(t.store.db, stranger.userId);
    expect((await recommend({ conversation_id: theirs, query_text: "anything at all here" })).statusCode).toBe(404);
  });

  it("gives no preview for binary types", async () => {
    await seedKnowledge(t, { userId: DEMO_USER, name: "Annual Report.PDF", chunks: ["Annual report revenue summary and outlook."] });
    const files = (await recommend({ query_text: "annual report revenue outlook" })).json();
    expect(files[0].filename).toBe("Annual Report.PDF");
    expect(files[0].content_preview).toBe("");
  });
});

describe("contentPreview", () => {
  it("cleans control characters and refuses garbage", () => {
    expect(contentPreview("a.txt", "Hello\u0007 world,\nthis is fine")).toBe("Hello world, this is fine");
    expect(contentPreview("a.txt", "short")).toBe("");
    expect(contentPreview("a.txt", "broken \uFFFD text here")).toBe("");
    expect(contentPreview("a.txt", "\u0001\u0002\u0003\u0004\u0005abcdefghij")).toBe("");
    expect(contentPreview("a.docx", "A perfectly readable sentence.")).toBe("");
    expect(contentPreview("a.txt", "x".repeat(300))).toHaveLength(201);
  });
});
