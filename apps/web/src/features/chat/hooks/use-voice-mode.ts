import { useEffect, useRef, useState } from "react";
import { speechErrorText } from "../speech-errors";
import { speak, stopSpeaking } from "../speech-output";
import { recognitionConstructor, type Recognition } from "./use-speech-recognition";
import { voiceLanguage } from "@/lib/voice-language";

/** What voice mode is doing: off, or listening to the user, waiting for SAGE, saying the answer, or just stopped. */
export type VoiceModeState = "off" | "listening" | "thinking" | "speaking" | "stopped";

/** How long "Voice mode stopped" stays after it stops. */
const STOPPED_MS = 4000;

/**
 * A hands-free conversation: listen (in the voice language), send what was said at the pause the browser ends a phrase with, wait
 * for the answer, say it, listen again. Speaking stops as soon as the user talks. Needs the browser's speech
 * recognition (`supported`); the answer is said only where the browser can speak.
 */
export function useVoiceMode({ send, lastAnswer }: { send: (text: string) => Promise<void>; lastAnswer: () => string | undefined }) {
  const Constructor = recognitionConstructor();
  const [state, setState] = useState<VoiceModeState>("off");
  const [error, setError] = useState<string>();
  const active = useRef(false);
  const speaking = useRef(false);
  const recognition = useRef<Recognition | null>(null);
  const callbacks = useRef({ send, lastAnswer });
  callbacks.current = { send, lastAnswer };

  function stopListening() {
    const current = recognition.current;
    recognition.current = null;
    current?.stop();
  }

  function end(reason?: string) {
    active.current = false;
    speaking.current = false;
    stopListening();
    stopSpeaking();
    setError(reason);
    setState("stopped");
  }

  function listen() {
    if (!Constructor || recognition.current) return;
    const heard = new Constructor();
    heard.lang = voiceLanguage();
    heard.continuous = true;
    heard.interimResults = true;
    heard.onresult = (event) => {
      let said = "";
      let final = "";
      for (let index = event.resultIndex; index < event.results.length; index++) {
        const result = event.results[index]!;
        said += result[0].transcript;
        if (result.isFinal) final += result[0].transcript;
      }
      // The user talks over the answer: SAGE stops speaking and listens.
      if (said.trim() && speaking.current) {
        speaking.current = false;
        stopSpeaking();
        setState("listening");
      }
      if (final.trim()) void take(final.trim());
    };
    heard.onerror = (event) => {
      // Silence and our own stop are not failures: listening simply goes on (or has ended on purpose).
      if (event.error === "no-speech" || event.error === "aborted") return;
      end(speechErrorText(event.error));
    };
    heard.onend = () => {
      if (recognition.current !== heard) return;
      recognition.current = null;
      // The browser ends a recognition after a while of silence: voice mode keeps listening.
      if (active.current) listen();
    };
    recognition.current = heard;
    heard.start();
  }

  async function take(text: string) {
    stopListening();
    setState("thinking");
    await callbacks.current.send(text);
    if (!active.current) return;
    const answer = callbacks.current.lastAnswer();
    const said =
      answer !== undefined &&
      speak(answer, () => {
        if (!speaking.current) return;
        speaking.current = false;
        if (active.current) setState("listening");
      });
    speaking.current = said;
    setState(said ? "speaking" : "listening");
    // Listening goes on while SAGE speaks, so the user can interrupt.
    listen();
  }

  useEffect(() => {
    if (state !== "stopped") return;
    const timer = setTimeout(() => setState((current) => (current === "stopped" ? "off" : current)), STOPPED_MS);
    return () => clearTimeout(timer);
  }, [state]);
  useEffect(
    () => () => {
      active.current = false;
      recognition.current?.stop();
      if (speaking.current) stopSpeaking();
    },
    [],
  );

  return {
    supported: Boolean(Constructor),
    state,
    error,
    on: state === "listening" || state === "thinking" || state === "speaking",
    start() {
      active.current = true;
      setError(undefined);
      setState("listening");
      listen();
    },
    stop: () => end(),
  };
}
