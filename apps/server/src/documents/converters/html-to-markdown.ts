interface DomNode {
  nodeType: number;
  nodeName: string;
  textContent: string | null;
  childNodes: ArrayLike<DomNode>;
  getAttribute?(name: string): string | null;
}

const BLOCK = new Set([
  "P",
  "DIV",
  "SECTION",
  "ARTICLE",
  "MAIN",
  "HEADER",
  "FOOTER",
  "ASIDE",
  "FIGURE",
  "FIGCAPTION",
  "BLOCKQUOTE",
  "DL",
  "DT",
  "DD",
  "ADDRESS",
  "NAV",
]);
const SKIP = new Set(["SCRIPT", "STYLE", "NOSCRIPT", "TEMPLATE", "SVG", "IFRAME", "HEAD", "BUTTON", "FORM", "INPUT", "SELECT"]);

const collapse = (text: string) => text.replace(/\s+/g, " ");

/**
 * Turns HTML into plain markdown that keeps what matters for retrieval: headings as '#' lines (they become
 * chunk sources), lists as '- ' / '1. ' items, tables as '| a | b |' rows, paragraphs separated by blank lines.
 */
export async function htmlToMarkdown(html: string): Promise<string> {
  // linkedom loads on first use: it is not needed to start the server.
  const { parseHTML } = await import("linkedom");
  const { document } = parseHTML(`<!doctype html><html><body>${html}</body></html>`);
  const blocks: string[] = [];
  let inline = "";

  const flush = () => {
    const text = inline
      .replace(/[ \t]+\n/g, "\n")
      .replace(/\n[ \t]+/g, "\n")
      .replace(/[ \t]{2,}/g, " ")
      .trim();
    if (text) blocks.push(text);
    inline = "";
  };

  const inlineText = (node: DomNode): string => {
    if (node.nodeType === 3) return collapse(node.textContent ?? "");
    if (node.nodeType !== 1 || SKIP.has(node.nodeName)) return "";
    if (node.nodeName === "BR") return "\n";
    return Array.from(node.childNodes, inlineText).join("");
  };

  const walkList = (list: DomNode, depth: number) => {
    flush();
    let index = 1;
    for (const child of Array.from(list.childNodes)) {
      if (child.nodeName !== "LI") continue;
      const marker = list.nodeName === "OL" ? `${index++}.` : "-";
      const nested: DomNode[] = [];
      const own = Array.from(child.childNodes)
        .filter((node) => {
          if (node.nodeName === "UL" || node.nodeName === "OL") {
            nested.push(node);
            return false;
          }
          return true;
        })
        .map(inlineText)
        .join("")
        .trim();
      blocks.push(`${"  ".repeat(depth)}${marker} ${collapse(own)}`);
      for (const sub of nested) walkList(sub, depth + 1);
    }
  };

  const walkTable = (table: DomNode) => {
    flush();
    const rows: string[] = [];
    const visit = (node: DomNode) => {
      if (node.nodeName === "TR") {
        const cells = Array.from(node.childNodes)
          .filter((cell) => cell.nodeName === "TD" || cell.nodeName === "TH")
          .map((cell) => collapse(inlineText(cell)).trim().replace(/\|/g, "\\|"));
        if (cells.length > 0) rows.push(`| ${cells.join(" | ")} |`);
        return;
      }
      for (const child of Array.from(node.childNodes)) visit(child);
    };
    visit(table);
    if (rows.length > 0) blocks.push(rows.join("\n"));
  };

  const walk = (node: DomNode) => {
    if (node.nodeType === 3) {
      inline += collapse(node.textContent ?? "");
      return;
    }
    if (node.nodeType !== 1 || SKIP.has(node.nodeName)) return;
    const name = node.nodeName;
    const heading = /^H([1-6])$/.exec(name);
    if (heading) {
      flush();
      const text = collapse(inlineText(node)).trim();
      if (text) blocks.push(`${"#".repeat(Number(heading[1]))} ${text}`);
      return;
    }
    if (name === "UL" || name === "OL") return walkList(node, 0);
    if (name === "TABLE") return walkTable(node);
    if (name === "PRE") {
      flush();
      blocks.push("```\n" + (node.textContent ?? "").replace(/\n+$/, "") + "\n```");
      return;
    }
    if (name === "BR") {
      inline += "\n";
      return;
    }
    if (name === "HR") return flush();
    const isBlock = BLOCK.has(name) || name === "LI";
    if (isBlock) flush();
    for (const child of Array.from(node.childNodes)) walk(child);
    if (isBlock) flush();
  };

  walk(document.body as unknown as DomNode);
  flush();
  return joinBlocks(blocks);
}

/** List items stay on consecutive lines; every other block is separated by a blank line. */
export function joinBlocks(blocks: string[]): string {
  const isListItem = (block: string) => /^\s*(-|\d+\.) /.test(block);
  let output = "";
  blocks.forEach((block, index) => {
    if (index > 0) output += isListItem(block) && isListItem(blocks[index - 1]!) ? "\n" : "\n\n";
    output += block;
  });
  return output;
}
