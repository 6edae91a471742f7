// `npm run eval:documents [-- --server=path/to/dist/main.js] [-- --label=name]`: a mixed set of real documents
// (the pdfminer and mammoth fixtures and the demo books from ../shared/eval, when present) and documents in other
// scripts and encodings made here, uploaded to a fresh SAGE; prints the share that ends ready and the share that a
// distinctive phrase of each finds (top 5 of /api/search). Pointing --server at an older build gives "before".
import { mkdirSync, readFileSync, readdirSync, writeFileSync, existsSync } from "node:fs";
import path from "node:path";
import iconv from "iconv-lite";
import { makeJapanesePdf, makeDocx } from "../apps/server/src/documents/test/test-documents.ts";
import { makeBilevelScanPdf } from "../apps/server/src/documents/test/test-images.ts";
import { makeWord6Doc } from "../apps/server/src/documents/test/test-office-files.ts";
import { makeRightToLeftPdf } from "../apps/server/src/documents/test/test-right-to-left-pdf.ts";
import { ROOT, startSage } from "./lib/server.mjs";

interface Document {
  name: string;
  bytes: Buffer;
  /** A phrase only this document holds; none for a document with no words to find. */
  phrase?: string;
  from: string;
}

const EVAL = path.join(ROOT, "..", "shared", "eval");
const argument = (name: string) => process.argv.find((arg) => arg.startsWith(`--${name}=`))?.slice(name.length + 3);

function fixtureDocuments(): Document[] {
  const documents: Document[] = [];
  const pdfminer = path.join(EVAL, "docextract-fixtures", "pdfminer");
  if (existsSync(pdfminer)) {
    // Phrases from pdfminer's expected text (its test checks these strings); simple2.pdf holds no text at all.
    const phrases: Record<string, string | undefined> = {
      "simple1.pdf": "Hello World",
      "simple2.pdf": undefined,
      "simple3.pdf": "あいうえお",
      "simple4.pdf": "Text2",
      "simple5.pdf": "vim-pandoc",
      "zen_of_python_corrupted.pdf": "zen_of_python",
      "contrib/issue_495_pdfobjref.pdf": "150,00",
      "contrib/issue_566_test_1.pdf": "黎荣",
      "contrib/issue_566_test_2.pdf": "中国饮料有限公司",
      "contrib/issue-625-identity-cmap.pdf": "Termin płatności",
      "contrib/issue-791-non-unicode-cmap.pdf": "Peněžní prostředky",
      "contrib/issue-886-xref-stream-widths.pdf": "Hello",
    };
    for (const [file, phrase] of Object.entries(phrases)) {
      documents.push({ name: path.basename(file), bytes: readFileSync(path.join(pdfminer, "samples", file)), phrase, from: "pdfminer.six (MIT)" });
    }
  }
  const mammoth = path.join(EVAL, "docextract-fixtures", "mammoth-docx");
  if (existsSync(mammoth)) {
    const expected = JSON.parse(readFileSync(path.join(mammoth, "expected_text.json"), "utf8")) as Record<string, { text?: string | null }>;
    for (const file of readdirSync(path.join(mammoth, "test-data"))) {
      const text = expected[file]?.text?.trim();
      documents.push({
        name: file,
        bytes: readFileSync(path.join(mammoth, "test-data", file)),
        phrase: text ? text.split(/\s+/).slice(0, 4).join(" ") : undefined,
        from: "python-mammoth (BSD-2-Clause)",
      });
    }
  }
  const books = path.join(EVAL, "demo-kb");
  if (existsSync(books)) {
    for (const file of readdirSync(books).filter((name) => /^(pg|\d).*\.txt$/.test(name))) {
      const bytes = readFileSync(path.join(books, file));
      const lines = bytes.toString("utf8").split("\n");
      // A full line of prose from the middle of the book.
      const middle = lines.slice(Math.floor(lines.length / 2)).find((line) => line.trim().split(/\s+/).length >= 9) ?? "";
      documents.push({ name: file, bytes, phrase: middle.trim().split(/\s+/).slice(1, 7).join(" "), from: "Project Gutenberg (public domain)" });
    }
  }
  return documents;
}

/** Documents in other scripts and encodings, as the issue found them in the wild, made the way their writers make them. */
async function madeDocuments(): Promise<Document[]> {
  const made = "made here";
  const german = "Die Einführung der Größenordnung folgt im Abschnitt über Unvollständigkeitssätze und französische Gärten.";
  const russian = "Квартальный отчёт о продажах в Новосибирске готов к совещанию.";
  return [
    { name: "zorge.pdf", bytes: await makeJapanesePdf([["ゾルゲと尾崎の事件についての報告書"]]), phrase: "ゾルゲと尾崎", from: made },
    {
      name: "arabic.pdf",
      bytes: await makeRightToLeftPdf(["تقرير الميزانية السنوية للشركة"]),
      phrase: "الميزانية السنوية",
      from: made,
    },
    {
      name: "upside-down-scan.pdf",
      bytes: await makeBilevelScanPdf([["The Cygnus board meets Friday."]], { upsideDown: true }),
      phrase: "Cygnus board",
      from: made,
    },
    { name: "einfuehrung-1252.txt", bytes: iconv.encode(german, "windows-1252"), phrase: "Größenordnung", from: made },
    { name: "einfuehrung-typed-plain.txt", bytes: iconv.encode(`${german} Quittung 4711.`, "windows-1252"), phrase: "Großenordnung", from: made },
    { name: "bericht-1251.txt", bytes: iconv.encode(russian, "windows-1251"), phrase: "Новосибирске", from: made },
    { name: "fragment.html", bytes: Buffer.from(`<p>${russian.replace("Квартальный", "Годовой")}</p>`), phrase: "Годовой отчёт", from: made },
    { name: "tokyo-sjis.txt", bytes: iconv.encode("東京支社の売上報告は来週の会議で発表します。", "Shift_JIS"), phrase: "東京支社", from: made },
    { name: "fullwidth.txt", bytes: Buffer.from("ＧＨＱの占領政策についての覚書"), phrase: "GHQ", from: made },
    {
      name: "word6.doc",
      bytes: makeWord6Doc(["Protokoll der Vorstandssitzung vom März, Tagesordnung Müllabfuhr."], { lid: 0x0407 }),
      phrase: "Müllabfuhr",
      from: made,
    },
    { name: "memo.docx", bytes: await makeDocx(), from: made },
  ];
}

/**
 * How a reader compares text: NFKC, no accents, ß as ss, no case, letters and digits only (CJK has no spaces, PDFs
 * break lines anywhere, and lists and tables put bullets and bars between words).
 */
const folded = (text: string) =>
  text
    .normalize("NFKD")
    .replace(/\p{M}/gu, "")
    .normalize("NFKC")
    .toLowerCase()
    .replace(/ß/g, "ss")
    .replace(/[^\p{L}\p{N}]+/gu, "");

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function main() {
  const server = argument("server");
  const label = argument("label") ?? (server ? path.basename(path.dirname(path.dirname(path.dirname(path.dirname(server))))) : "this build");
  const documents = [...fixtureDocuments(), ...(await madeDocuments())];
  if (!fixtureDocuments().length) console.error(`eval-documents: ${EVAL} not found; only the documents made here are used.`);
  const sage = await startSage({ label: "documents", ...(server ? { entry: server } : {}) });
  try {
    const cookie = await sage.login();
    const uploaded: Array<Document & { id: number; status?: string; reason?: string | null; found?: boolean }> = [];
    for (const document of documents) {
      const form = new FormData();
      form.append("file", new Blob([document.bytes]), document.name);
      const response = await fetch(`${sage.url}/api/upload`, { method: "POST", headers: { cookie }, body: form });
      const body = (await response.json()) as { file?: { id: number }; error?: string };
      uploaded.push({ ...document, id: body.file?.id ?? -1, ...(body.file ? {} : { status: `refused ${response.status}`, reason: body.error }) });
    }
    const deadline = Date.now() + 15 * 60_000;
    for (;;) {
      const items = (await (await fetch(`${sage.url}/api/files`, { headers: { cookie } })).json()) as Array<{
        id: number;
        status: string;
        statusReason?: string | null;
      }>;
      for (const entry of uploaded.filter((candidate) => candidate.id > 0)) {
        const item = items.find((candidate) => candidate.id === entry.id);
        entry.status = item?.status;
        entry.reason = item?.statusReason ?? null;
      }
      if (uploaded.every((entry) => entry.status && !["pending", "processing", "queued"].includes(entry.status)) || Date.now() > deadline) break;
      await sleep(500);
    }
    for (const entry of uploaded.filter((candidate) => candidate.phrase)) {
      const response = await fetch(`${sage.url}/api/search`, {
        method: "POST",
        headers: { cookie, "content-type": "application/json" },
        body: JSON.stringify({ query: entry.phrase, limit: 5 }),
      });
      const results = response.ok ? ((await response.json()) as Array<{ content: string; metadata: { file_id?: number; filename: string } }>) : [];
      // Found: one of the first five results is a passage of this document that holds the phrase.
      entry.found = results.some(
        (result) => (result.metadata.file_id === entry.id || result.metadata.filename === entry.name) && folded(result.content).includes(folded(entry.phrase!)),
      );
    }
    const ready = uploaded.filter((entry) => entry.status === "ready").length;
    const withPhrase = uploaded.filter((entry) => entry.phrase);
    const found = withPhrase.filter((entry) => entry.found).length;
    for (const entry of uploaded) {
      console.log(
        `${(entry.status ?? "?").padEnd(10)} ${entry.phrase ? (entry.found ? "found    " : "not found") : "(no text)"}  ${entry.name}${entry.reason ? `  - ${entry.reason}` : ""}`,
      );
    }
    const summary = {
      label,
      documents: uploaded.length,
      ready,
      readyShare: Number((ready / uploaded.length).toFixed(3)),
      withPhrase: withPhrase.length,
      found,
      foundShare: Number((found / withPhrase.length).toFixed(3)),
      notReady: uploaded.filter((entry) => entry.status !== "ready").map((entry) => entry.name),
      notFound: withPhrase.filter((entry) => !entry.found).map((entry) => entry.name),
    };
    console.log(JSON.stringify(summary));
    mkdirSync(path.join(ROOT, "bench", "results"), { recursive: true });
    writeFileSync(
      path.join(ROOT, "bench", "results", `eval-documents-${label.replace(/\W+/g, "-")}.json`),
      JSON.stringify({ summary, documents: uploaded.map(({ bytes: _bytes, ...rest }) => rest) }, null, 2),
    );
  } finally {
    await sage.stop();
  }
}

await main();
