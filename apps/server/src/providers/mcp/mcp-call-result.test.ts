import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";
import { describe, expect, it } from "vitest";
import { callResult, createOutputChecker, McpOutputError } from "./mcp-call-result.ts";

const check = createOutputChecker(new AjvJsonSchemaValidator());
const weather = { type: "object", properties: { temperature: { type: "number" } }, required: ["temperature"] };

describe("a tool's result", () => {
  it("keeps structured content that matches the tool's output schema, and the links it gives", () => {
    const result = callResult(
      {
        content: [
          { type: "text", text: "Warm" },
          { type: "resource_link", uri: "demo://a", name: "A file", mimeType: "text/plain" },
        ],
        structuredContent: { temperature: 21 },
      },
      weather,
      check,
    );
    expect(result).toEqual({
      text: "Warm\n[Resource: A file (demo://a)]",
      isError: false,
      structured: { temperature: 21 },
      links: [{ uri: "demo://a", name: "A file", mimeType: "text/plain" }],
    });
  });

  it("fails a result whose structured content breaks the tool's own schema, or is missing", () => {
    expect(() => callResult({ content: [], structuredContent: { temperature: "hot" } }, weather, check)).toThrow(McpOutputError);
    expect(() => callResult({ content: [], structuredContent: { temperature: "hot" } }, weather, check)).toThrow(/does not match its own schema/);
    expect(() => callResult({ content: [{ type: "text", text: "21" }] }, weather, check)).toThrow(/promised structured data but gave none/);
    // An error result need not carry it.
    expect(callResult({ content: [{ type: "text", text: "No such city" }], isError: true }, weather, check)).toEqual({ text: "No such city", isError: true });
  });

  it("gives the model the structured content as JSON when the tool wrote no text", () => {
    expect(callResult({ content: [], structuredContent: { temperature: 3 } }, undefined, check).text).toBe('{"temperature":3}');
  });
});
