/**
 * `npm run eval:languages`: how well search finds words in languages other than English (issue 29). The corpus is
 * TypeScript's translated compiler messages (`typescript/lib/<language>/diagnosticMessages.generated.json`, Apache
 * 2.0, installed with the repository): the same 2,120 real sentences in 13 languages, one knowledge item each, one
 * user per language, ingested and searched as the app does (TXT converter, chunker, retrieval service).
 * - accented words (cs, de, es, fr, it, pl, pt-br, ru, tr): every 4+ letter word with a diacritic or a letter such
 *   as ß or ł, up to 150 a language, searched as written and without its accents; found = the first result holds
 *   the word as written.
 * - CJK (ja, ko, zh-cn, zh-tw): a 4-character piece from the middle of the longest run of Han, kana or Hangul of up to
 *   150 messages; found = the first result (or one of the first 10) holds the piece.
 * - fullwidth: the Latin words of the Japanese messages typed in fullwidth letters (`ＪＳＸ`); found = the first
 *   result holds the word.
 * `-- --misses` lists on stderr each query whose first result lacks what was looked for, with that result.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { makeTempDir } from "../packages/testkit/src/temp-dir.ts";
import { openStore } from "../apps/server/src/store/open-store.ts";
import { ingestPlainDocument } from "./ingest-plain-document.ts";
import { benchRetrieval } from "./lib/retrieval-service.ts";

const ACCENTED = ["cs", "de", "es", "fr", "it", "pl", "pt-br", "ru", "tr"];
const CJK = ["ja", "ko", "zh-cn", "zh-tw"];
const SAMPLE = 150;
const showMisses = process.argv.includes("--misses");
const CJK_RUN = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}ー]{4,}/gu;

const typescriptLib = path.join(path.dirname(createRequire(import.meta.url).resolve("typescript/package.json")), "lib");
const messages = (language: string): string[] =>
  Object.values(JSON.parse(readFileSync(path.join(typescriptLib, language, "diagnosticMessages.generated.json"), "utf8")) as Record<string, string>);

/** Every n-th of the sorted list, so a run always takes the same sample. */
const sample = <T>(items: T[]): T[] => items.filter((_, index) => index % Math.max(1, Math.ceil(items.length / SAMPLE)) === 0).slice(0, SAMPLE);
const withoutAccents = (word: string) =>
  word.normalize("NFD").replace(/\p{M}/gu, "").replace(/ß/g, "ss").replace(/ł/g, "l").replace(/Ł/g, "L").replace(/ı/g, "i");
const hasAccent = (word: string) => withoutAccents(word) !== word;
const fullwidth = (word: string) => word.replace(/[!-~]/g, (character) => String.fromCharCode(character.charCodeAt(0) + 0xfee0));
const share = (found: number, total: number) => ({ found, total, share: total === 0 ? null : Number((found / total).toFixed(3)) });

async function main() {
  const temp = makeTempDir();
  const store = openStore({ dataDir: temp.dir });
  try {
    const languages = [...ACCENTED, ...CJK];
    const addUser = store.sqlite.prepare("INSERT INTO users (id, username, password_hash, created_at) VALUES (?, ?, 'x', ?)");
    const texts = new Map<string, string[]>();
    store.sqlite.transaction(() => {
      languages.forEach((language, index) => {
        addUser.run(index + 10, `eval-${language}`, new Date().toISOString());
        const list = messages(language);
        texts.set(language, list);
        list.forEach((text, position) => ingestPlainDocument(store.sqlite, { userId: index + 10, name: `message ${position}`, text }));
      });
    })();
    const service = benchRetrieval(store.sqlite);
    const userOf = (language: string) => languages.indexOf(language) + 10;
    const top = async (language: string, query: string, limit = 1) =>
      (await service.searchChunks(query, { userId: userOf(language) }, limit)).map((chunk) => chunk.content.normalize("NFC").toLocaleLowerCase());

    const accented: Record<string, unknown> = {};
    let totalWords = 0;
    let asWritten = 0;
    let stripped = 0;
    for (const language of ACCENTED) {
      const words = new Set<string>();
      for (const text of texts.get(language)!) for (const word of text.normalize("NFC").match(/[\p{L}\p{M}]{4,}/gu) ?? []) if (hasAccent(word)) words.add(word);
      const chosen = sample([...words].sort());
      let foundAsWritten = 0;
      let foundStripped = 0;
      for (const word of chosen) {
        const wanted = word.toLocaleLowerCase();
        for (const query of [word, withoutAccents(word)]) {
          const first = (await top(language, query))[0];
          if (!first?.includes(wanted)) {
            if (showMisses) console.error(`${language} ${JSON.stringify(query)} -> ${JSON.stringify(first?.slice(0, 120) ?? null)}`);
          } else if (query === word) foundAsWritten++;
          else foundStripped++;
        }
      }
      accented[language] = { words: chosen.length, asWritten: foundAsWritten, withoutAccents: foundStripped };
      totalWords += chosen.length;
      asWritten += foundAsWritten;
      stripped += foundStripped;
    }

    const cjk: Record<string, unknown> = {};
    for (const language of CJK) {
      const pieces = sample(
        texts.get(language)!.flatMap((text) => {
          const run = (text.match(CJK_RUN) ?? []).sort((a, b) => b.length - a.length)[0];
          if (!run) return [];
          const characters = [...run];
          const start = Math.floor((characters.length - 4) / 2);
          return [characters.slice(start, start + 4).join("")];
        }),
      );
      let first = 0;
      let tenth = 0;
      for (const piece of pieces) {
        const results = await top(language, piece, 10);
        if (results[0]?.includes(piece)) first++;
        if (results.some((text) => text.includes(piece))) tenth++;
      }
      cjk[language] = { pieces: pieces.length, found1: share(first, pieces.length).share, found10: share(tenth, pieces.length).share };
    }

    const latin = sample([...new Set(texts.get("ja")!.flatMap((text) => text.match(/\b[A-Za-z]{3,}\b/g) ?? []))].sort());
    let fullwidthFound = 0;
    for (const word of latin) if ((await top("ja", fullwidth(word)))[0]?.includes(word.toLowerCase())) fullwidthFound++;

    console.log(
      JSON.stringify(
        {
          corpus: "typescript diagnosticMessages (translated)",
          messagesPerLanguage: texts.get("de")!.length,
          accentedWords: { ...accented, all: { words: totalWords, asWritten: share(asWritten, totalWords), withoutAccents: share(stripped, totalWords) } },
          cjk,
          fullwidthLatin: share(fullwidthFound, latin.length),
        },
        null,
        2,
      ),
    );
  } finally {
    await store.close();
    temp.remove();
  }
}

await main();
