import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../test/test-app.ts";

let t: TestApp;
let cookie: string;
beforeEach(async () => {
  t = await createTestApp();
  cookie = await t.login();
});
afterEach(async () => t.close());

const call = (method: "GET" | "POST" | "DELETE", url: string, payload?: unknown, as = cookie) =>
  t.app.inject({ method, url, payload: payload as any, headers: { cookie: as } });

async function conversationWith(name: string, messages: Array<{ role: "user" | "model"; content: string }>, as = cookie) {
  const { id } = (await call("POST", "/api/conversations", { name }, as)).json() as { id: number };
  for (const message of messages) expect((await call("POST", `/api/conversations/${id}/messages`, message, as)).statusCode).toBe(200);
  return id;
}

const search = async (q: string, as = cookie) => {
  const response = await call("GET", `/api/conversations/search?q=${encodeURIComponent(q)}`, undefined, as);
  expect(response.statusCode).toBe(200);
  return response.json() as Array<{ conversationId: number; name: string; messageId: number; role: string; snippet: string }>;
};

describe("GET /api/conversations/search", () => {
  it("finds messages in every conversation however the words are accented or cased, newest first, with a snippet", async () => {
    const zurich = await conversationWith("Trip", [
      { role: "user", content: "Book the hotel in Zürich for the Résumé workshop." },
      { role: "model", content: "The Zürich hotel is booked for Thursday." },
    ]);
    const board = await conversationWith("Board", [{ role: "user", content: "Prepare the board deck for Monday." }]);

    const hits = await search("zurich");
    expect(hits.map((hit) => [hit.conversationId, hit.name, hit.role])).toEqual([
      [zurich, "Trip", "model"],
      [zurich, "Trip", "user"],
    ]);
    expect(hits[0]!.snippet).toBe("The Zürich hotel is booked for Thursday.");
    expect((await search("RESUME zürich")).map((hit) => hit.role)).toEqual(["user"]);
    expect((await search("board deck")).map((hit) => hit.conversationId)).toEqual([board]);
    expect(await search("zurich board")).toEqual([]);
  });

  it("finds German written with or without umlauts and ß, and lists a reply found twice once (issue 52 item 8)", async () => {
    const german = await conversationWith("Lieferant", [
      { role: "user", content: "Bitte um Rückmeldung zur Lieferung in die Hauptstraße." },
      { role: "model", content: "Die Muenchner Filiale bestätigt die Lieferung." },
      { role: "model", content: "Die Muenchner Filiale bestätigt die Lieferung." },
    ]);
    // Before: nothing for either.
    expect((await search("rueckmeldung")).map((hit) => [hit.conversationId, hit.role])).toEqual([[german, "user"]]);
    expect((await search("hauptstrasse")).map((hit) => hit.role)).toEqual(["user"]);
    expect((await search("Rückmeldung")).map((hit) => hit.role)).toEqual(["user"]);
    // Written without umlauts, found with them; the same reply twice in a conversation (before: two hits) is one.
    const munich = await search("münchner lieferung");
    expect(munich.map((hit) => [hit.conversationId, hit.role])).toEqual([[german, "model"]]);
    expect(munich[0]!.snippet).toBe("Die Muenchner Filiale bestätigt die Lieferung.");
  });

  it("leaves out other users' messages and deleted conversations", async () => {
    await conversationWith("Mine", [{ role: "user", content: "Quince orchard plans" }]);
    const { cookie: other } = await t.loginAsNewUser();
    await conversationWith("Theirs", [{ role: "user", content: "Quince jam recipe" }], other);
    const gone = await conversationWith("Gone", [{ role: "user", content: "Quince harvest" }]);
    expect((await call("DELETE", `/api/conversations/${gone}`)).statusCode).toBe(200);

    expect((await search("quince")).map((hit) => hit.name)).toEqual(["Mine"]);
    expect((await search("quince", other)).map((hit) => hit.name)).toEqual(["Theirs"]);
  });

  it("refuses an empty query with a 400 in plain words", async () => {
    const response = await call("GET", "/api/conversations/search?q=%20%20");
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toContain("Type something to search for");
    expect((await call("GET", "/api/conversations/search?q=x&limit=999")).statusCode).toBe(400);
  });
});
