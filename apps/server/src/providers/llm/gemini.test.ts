import { startFakeGemini, type FakeGemini } from "@sage/testkit/fake-gemini";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createGeminiLlm } from "./gemini.ts";
import type { JsonSchema, LlmTool } from "./llm.ts";

let gemini: FakeGemini;
beforeAll(async () => void (gemini = await startFakeGemini()));
afterAll(() => gemini.close());
beforeEach(() => gemini.reset());

const llm = () => createGeminiLlm({ apiKey: "k", baseUrl: gemini.baseUrl, modelId: "gemini-2.0-flash", allowedModels: ["gemini-2.0-flash"] });

// Input schemas as MCP servers send them: zod's output ($schema, additionalProperties), and $ref, allOf, oneOf, anyOf.
const planMeeting: LlmTool = {
  name: "plan_meeting",
  description: "Plan a meeting",
  parameters: {
    $schema: "http://json-schema.org/draft-07/schema#",
    type: "object",
    $defs: {
      person: {
        type: "object",
        properties: { name: { type: "string" }, email: { type: "string", format: "email" } },
        required: ["name"],
        additionalProperties: false,
      },
    },
    properties: {
      organizer: { $ref: "#/$defs/person" },
      attendees: { type: "array", items: { $ref: "#/$defs/person" }, minItems: 1 },
      when: {
        oneOf: [
          { type: "string", format: "date-time" },
          { type: "object", properties: { day: { type: "string", format: "date" } }, required: ["day"] },
        ],
      },
      room: {
        allOf: [
          { type: "object", properties: { building: { type: "string" } } },
          { properties: { floor: { type: "integer", minimum: 0 } }, required: ["floor"] },
        ],
      },
      length: { anyOf: [{ type: "integer", exclusiveMinimum: 0 }, { type: "null" }], description: "Minutes" },
      labels: { type: "object", additionalProperties: { type: "string" } },
    },
    required: ["organizer", "when"],
    additionalProperties: false,
  } as JsonSchema,
};
const outline: LlmTool = {
  name: "outline",
  description: "Write an outline",
  parameters: {
    type: "object",
    properties: { root: { $ref: "#/$defs/node" } },
    $defs: { node: { type: "object", properties: { title: { type: "string" }, children: { type: "array", items: { $ref: "#/$defs/node" } } } } },
  } as JsonSchema,
};
const ask = { messages: [{ role: "user" as const, content: "Plan the board meeting" }], tools: [planMeeting, outline] };

describe("Gemini's tool declarations", () => {
  it("declares tools with $ref, allOf, oneOf and anyOf in a form the API takes, streamed or not, and leaves out one it cannot describe", async () => {
    for (const streamed of [false, true]) {
      gemini.reset();
      gemini.script({ text: "Planned." });
      const reply = await llm().generate({ ...ask, ...(streamed ? { onText: () => undefined } : {}) });
      expect(reply.text).toBe("Planned.");
      const [declared] = gemini.requests.at(-1)!.body.tools[0].functionDeclarations;
      expect(gemini.requests.at(-1)!.body.tools[0].functionDeclarations).toHaveLength(1); // outline is left out
      expect(declared.name).toBe("plan_meeting");
      expect(Object.keys(declared.parameters.properties)).toEqual(["organizer", "attendees", "when", "room", "length", "labels"]);
      expect(declared.parameters.properties.when.anyOf).toHaveLength(2);
      expect(declared.parameters.properties.length).toMatchObject({ type: "integer", nullable: true });
    }
  });

  it("gives back the model's call with what it wrote as JSON text parsed, as the tool's schema wants it", async () => {
    const args = { organizer: { name: "Ada" }, when: "2030-01-02T09:00:00Z", labels: '{"team":"board"}' };
    gemini.script({ functionCalls: [{ name: "plan_meeting", args }] });
    const reply = await llm().generate({ ...ask, onText: () => undefined });
    expect(reply.toolCalls).toEqual([{ id: expect.any(String), name: "plan_meeting", args: { ...args, labels: { team: "board" } } }]);
  });

  it("says in plain words why a tool cannot be used, and nothing for one that can", () => {
    expect(llm().checkToolSchema!(planMeeting.parameters)).toBeUndefined();
    expect(llm().checkToolSchema!(outline.parameters)).toEqual({
      message: "Gemini cannot use this tool, so chats leave it out: its input refers to itself without end, which Gemini cannot describe.",
      detail: 'Recursive $ref "#/$defs/node" at properties.root.properties.children.items',
    });
  });
});
