/**
 * Names with bidirectional controls and invisible format characters (issue 36): "minutes\u202Ecod.txt" shows as
 * "minutestxt.doc" wherever the name is shown. Every way a name comes in (an upload, a zip's entries and folders,
 * an uploaded folder's path, a typed folder name or rename, a link's or note's derived name) keeps what is visible
 * and drops the rest; joiners that emoji and scripts need (U+200D, U+200C) stay.
 */
import { afterEach, describe, expect, it } from "vitest";
import type { KnowledgeItem } from "@sage/contracts/knowledge";
import { knowledgeClient } from "../test/knowledge-client.ts";
import { makeZip } from "../test/make-zip.ts";
import { createTestApp, type TestApp } from "../test/test-app.ts";

let t: TestApp;
afterEach(async () => t?.close());

const RLO = "\u202e";
/** Right-to-left and left-to-right overrides, embeddings, isolates, marks, a zero-width space, a BOM, a soft hyphen. */
const HIDDEN = [
  "\u202e",
  "\u202d",
  "\u202a",
  "\u202b",
  "\u202c",
  "\u2066",
  "\u2067",
  "\u2068",
  "\u2069",
  "\u200e",
  "\u200f",
  "\u061c",
  "\u200b",
  "\u2060",
  "\ufeff",
  "\u00ad",
];
const visible = (name: string) => [...name].every((character) => !HIDDEN.includes(character));

describe("names with bidirectional controls or invisible characters", () => {
  it("are stored and listed without them, however the name came in", async () => {
    t = await createTestApp();
    const kb = knowledgeClient(t, await t.login());
    const items = async () => (await kb.call("GET", "/api/files")).json() as KnowledgeItem[];

    expect((await kb.upload({}, { filename: `minutes${RLO}cod.txt`, content: Buffer.from("Board minutes.") })).json().file.name).toBe("minutescod.txt");
    expect((await kb.upload({}, { filename: `${HIDDEN.join("")}plan${HIDDEN.join("")}.txt`, content: Buffer.from("The plan.") })).json().file.name).toBe(
      "plan.txt",
    );
    // Joiners are part of what is seen: a family emoji and a Persian word keep theirs.
    expect(
      (
        await kb.upload(
          {},
          { filename: "\u{1F468}\u200d\u{1F469}\u200d\u{1F467} \u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645.txt", content: Buffer.from("Family.") },
        )
      ).json().file.name,
    ).toBe("\u{1F468}\u200d\u{1F469}\u200d\u{1F467} \u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645.txt");
    const zip = await makeZip([[`Board${RLO}fdp/notes\u200f${RLO}txt.txt`, "Zipped notes."]]);
    expect((await kb.upload({}, { filename: `Arch${RLO}ive.zip`, content: zip })).statusCode).toBe(200);
    expect((await kb.upload({ relativePath: `Q${RLO}1/agenda.txt` }, { filename: "agenda.txt", content: Buffer.from("Agenda.") })).statusCode).toBe(200);

    const folder = await kb.call("POST", "/api/folders", { name: `Fin${RLO}ance\u200b`, type: "folder", userId: 3, conversationId: 0, parentId: 0, path: "" });
    expect(folder.statusCode).toBe(201);
    const renamed = await kb.call("PATCH", `/api/files/${folder.json().id}`, { name: `Fin${RLO}ecnan\u2066`, userId: 3 });
    expect(renamed.statusCode).toBe(200);
    expect(
      (await kb.call("POST", "/api/files", { type: "note", content: `${RLO}Secret gnirts here`, userId: 3, conversationId: 0, parentId: 0 })).statusCode,
    ).toBe(201);
    expect(
      (await kb.call("POST", "/api/files", { type: "url", url: "https://example.com/invoice%E2%80%AEfdp.exe", userId: 3, conversationId: 0, parentId: 0 }))
        .statusCode,
    ).toBe(201);

    const all = await items();
    expect(all.filter((item) => !visible(item.name) || !visible(item.path))).toEqual([]);
    expect(all.map((item) => item.path).sort()).toEqual(
      [
        "minutescod.txt",
        "plan.txt",
        "\u{1F468}\u200d\u{1F469}\u200d\u{1F467} \u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645.txt",
        "Archive",
        "Archive/Boardfdp",
        "Archive/Boardfdp/notestxt.txt",
        "Q1",
        "Q1/agenda.txt",
        "Finecnan",
        "Secret gnirts here",
        "example.com - invoicefdp",
      ].sort(),
    );
  });

  it("a typed name of nothing but invisible characters is refused like an empty one, changing nothing", async () => {
    t = await createTestApp();
    const kb = knowledgeClient(t, await t.login());
    const response = await kb.call("POST", "/api/folders", { name: `${RLO}\u200b\u2066`, type: "folder", userId: 3, conversationId: 0, parentId: 0, path: "" });
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toBe("Invalid body: name: Name is required");
    expect((await kb.call("GET", "/api/files")).json()).toEqual([]);
  });
});
