import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makePptx } from "../../documents/test/test-office-files.ts";
import { knowledgeClient } from "../../test/knowledge-client.ts";
import { createTestApp, type TestApp } from "../../test/test-app.ts";

// GET /api/files/{id}/text: the preview's document text, by slide (issue 33 item 4). Converts a real deck (a process).
let t: TestApp;
let cookie: string;
beforeAll(async () => {
  t = await createTestApp();
  cookie = await t.login();
});
afterAll(async () => t?.close());

const text = (id: number, as = cookie) => t.app.inject({ method: "GET", url: `/api/files/${id}/text`, headers: { cookie: as } });

describe("GET /api/files/{id}/text", () => {
  it("answers the item's text slide by slide, and only to its owner", async () => {
    const deck = await makePptx([
      { title: "Intro", bullets: ["Welcome to the board"] },
      { title: "Albatross rollout", bullets: ["Albatross ships in April"] },
    ]);
    const uploaded = await knowledgeClient(t, cookie).upload(
      { userId: 3, conversationId: 0, parentId: 0, path: "", description: "Deck" },
      { filename: "deck.pptx", content: deck, type: "application/vnd.openxmlformats-officedocument.presentationml.presentation" },
    );
    expect(uploaded.statusCode, uploaded.body).toBe(200);
    const id = uploaded.json().file.id as number;

    const response = await text(id);
    expect(response.statusCode).toBe(200);
    const { sections } = response.json() as { sections: { source: string; text: string }[] };
    expect(sections.map((section) => section.source)).toEqual(["slide 1", "slide 2"]);
    expect(sections[1]!.text).toContain("Albatross ships in April");

    const other = await t.loginAsNewUser();
    expect((await text(id, other.cookie)).statusCode).toBe(404);
    expect((await text(999_999)).statusCode).toBe(404);
  });
});
