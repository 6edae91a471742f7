import { expect, test, type Page } from "@playwright/test";
import { signIn } from "../support/auth.ts";
import { fakeGemini } from "../support/fake-gemini.ts";

// Issue 32: voice mode's states and Read aloud, with the browser's speech APIs stubbed (no microphone, no voice).
test.describe.configure({ mode: "serial" });

interface VoiceStub {
  /** What the stubbed voice was asked to say, in order. */
  spoken: string[];
  /** The language of each thing said, and of each recognition started. */
  spokenLanguages: string[];
  heardLanguages: string[];
  /** How many times speaking was cut short. */
  cancels: number;
  /** Recognitions started and not yet stopped. */
  listening: number;
  /** The user says something: an interim result, or a final one (a pause). */
  say(text: string, final: boolean): void;
  /** The voice finishes what it is saying. */
  finishSpeaking(): void;
}
declare global {
  interface Window {
    voiceStub: VoiceStub;
  }
}

/** Stand-ins for SpeechRecognition and speechSynthesis that the test drives. */
function installSpeechStubs() {
  const live = new Set<any>();
  let utterance: any = null;
  const stub = {
    spoken: [] as string[],
    spokenLanguages: [] as string[],
    heardLanguages: [] as string[],
    cancels: 0,
    get listening() {
      return live.size;
    },
    say(text: string, final: boolean) {
      for (const recognition of live) {
        const result = Object.assign([{ transcript: text }], { isFinal: final });
        recognition.onresult?.({ resultIndex: 0, results: Object.assign([result], { length: 1 }) });
      }
    },
    finishSpeaking() {
      const done = utterance;
      utterance = null;
      done?.onend?.();
    },
  };
  class FakeRecognition {
    lang = "";
    continuous = false;
    interimResults = false;
    onresult: any = null;
    onerror: any = null;
    onend: any = null;
    start() {
      stub.heardLanguages.push(this.lang);
      live.add(this);
    }
    stop() {
      if (live.delete(this)) setTimeout(() => this.onend?.(), 0);
    }
  }
  class FakeUtterance {
    lang = "";
    onend: any = null;
    onerror: any = null;
    constructor(public text: string) {}
  }
  Object.defineProperty(window, "SpeechRecognition", { value: FakeRecognition, configurable: true });
  Object.defineProperty(window, "webkitSpeechRecognition", { value: FakeRecognition, configurable: true });
  Object.defineProperty(window, "SpeechSynthesisUtterance", { value: FakeUtterance, configurable: true });
  Object.defineProperty(window, "speechSynthesis", {
    configurable: true,
    value: {
      speak(next: any) {
        utterance = next;
        stub.spoken.push(next.text);
        stub.spokenLanguages.push(next.lang);
      },
      cancel() {
        if (!utterance) return;
        stub.cancels += 1;
        const done = utterance;
        utterance = null;
        done.onend?.();
      },
    },
  });
  (window as any).voiceStub = stub;
}

const stub = (page: Page) => ({
  spoken: () => page.evaluate(() => window.voiceStub.spoken),
  languages: () => page.evaluate(() => ({ spoken: window.voiceStub.spokenLanguages, heard: window.voiceStub.heardLanguages })),
  cancels: () => page.evaluate(() => window.voiceStub.cancels),
  listening: () => page.evaluate(() => window.voiceStub.listening),
  say: (text: string, final: boolean) => page.evaluate(([words, done]) => window.voiceStub.say(words as string, done as boolean), [text, final] as const),
  finishSpeaking: () => page.evaluate(() => window.voiceStub.finishSpeaking()),
});
const voiceState = (page: Page) => page.getByTestId("voice-mode-state");

async function openConversation(page: Page) {
  await signIn(page);
  const { id } = await (await page.request.post("/api/conversations", { data: { name: "Voice" } })).json();
  await page.goto(`/conversations/${id}`);
  await expect(page.getByRole("textbox", { name: "Message" })).toBeVisible();
}

test.beforeEach(async () => fakeGemini.reset());

test("voice mode listens, sends on a pause, thinks, speaks the answer, stops speaking when the user talks, and stops", async ({ page }) => {
  await page.addInitScript(installSpeechStubs);
  await openConversation(page);
  const voice = stub(page);
  await page.getByRole("button", { name: "Start voice mode" }).click();
  await expect(voiceState(page)).toHaveText("Listening...");
  expect(await voice.listening()).toBe(1);

  // Words as they come are not sent; the pause (a final result) sends them.
  // The answer waits at a gate until the test has seen SAGE thinking and not listening: the second-long pauses it had
  // were outrun on a loaded machine (the answer already spoken, listening again).
  await fakeGemini.script({ chunks: ["Your first meeting ", "is the **board review** at nine."], gate: "answer" });
  await voice.say("what is my first", false);
  await expect(page.locator('[data-testid="chat-message"][data-role="user"]')).toHaveCount(0);
  await voice.say("What is my first meeting today?", true);
  await expect(voiceState(page)).toHaveText("Thinking...");
  await expect(page.locator('[data-testid="chat-message"][data-role="user"]')).toHaveText(/What is my first meeting today\?/);
  expect(await voice.listening()).toBe(0);

  await fakeGemini.open("answer");
  await expect(voiceState(page)).toHaveText("Speaking...");
  expect(await voice.spoken()).toEqual(["Your first meeting is the board review at nine."]);
  // The user talks over the answer: speaking stops at once and SAGE listens.
  await voice.say("wait", false);
  await expect(voiceState(page)).toHaveText("Listening...");
  expect(await voice.cancels()).toBe(1);
  expect(await voice.listening()).toBe(1);

  await page.getByRole("button", { name: "End voice mode" }).click();
  await expect(voiceState(page)).toHaveText("Voice mode stopped");
  expect(await voice.listening()).toBe(0);
  await expect(page.getByRole("button", { name: "Start voice mode" })).toBeVisible();
});

test("Read aloud says an answer and can be stopped; voice mode is hidden without speech recognition", async ({ page }) => {
  await page.addInitScript(installSpeechStubs);
  await page.addInitScript(() => {
    delete (window as any).SpeechRecognition;
    delete (window as any).webkitSpeechRecognition;
  });
  await openConversation(page);
  await expect(page.getByRole("button", { name: "Start voice mode" })).toHaveCount(0);

  await fakeGemini.script({ text: "The launch is on [14 March](https://example.com/plan)." });
  await page.getByRole("textbox", { name: "Message" }).fill("When is the launch?");
  await page.getByRole("textbox", { name: "Message" }).press("Enter");
  const answer = page.locator('[data-testid="chat-message"][data-role="ai"]');
  await expect(answer).toHaveText(/The launch is on 14 March\./);
  await answer.getByRole("button", { name: "Read aloud" }).click();
  expect(await stub(page).spoken()).toEqual(["The launch is on 14 March."]);
  await answer.getByRole("button", { name: "Stop reading aloud" }).click();
  expect(await stub(page).cancels()).toBe(1);
  await expect(answer.getByRole("button", { name: "Read aloud" })).toBeVisible();
  await answer.getByRole("button", { name: "Read aloud" }).click();
  await stub(page).finishSpeaking();
  await expect(answer.getByRole("button", { name: "Read aloud" })).toBeVisible();
});

test("the voice language chosen in Settings is the one SAGE listens and reads aloud in", async ({ page }) => {
  await page.addInitScript(installSpeechStubs);
  await signIn(page);
  await page.goto("/settings?section=user-preferences");
  const language = page.getByRole("combobox", { name: "Voice language" });
  await expect(language).toHaveValue("en-US");
  await language.selectOption({ label: "Français" });
  const { id } = await (await page.request.post("/api/conversations", { data: { name: "Voix" } })).json();
  await page.goto(`/conversations/${id}`);

  await fakeGemini.script({ text: "Le lancement est le 14 mars." });
  await page.getByRole("textbox", { name: "Message" }).fill("Quand est le lancement ?");
  await page.getByRole("textbox", { name: "Message" }).press("Enter");
  const answer = page.locator('[data-testid="chat-message"][data-role="ai"]');
  await expect(answer).toHaveText(/Le lancement est le 14 mars\./);
  await answer.getByRole("button", { name: "Read aloud" }).click();
  await page.getByRole("button", { name: "Start voice mode" }).click();
  await expect.poll(() => stub(page).listening()).toBe(1);
  expect(await stub(page).languages()).toEqual({ spoken: ["fr-FR"], heard: ["fr-FR"] });
  // Kept in this browser: the choice is still there after a reload.
  await page.goto("/settings?section=user-preferences");
  await expect(page.getByRole("combobox", { name: "Voice language" })).toHaveValue("fr-FR");
});
