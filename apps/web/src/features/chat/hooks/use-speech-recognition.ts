import { useCallback, useEffect, useRef, useState } from "react";
import { speechErrorText } from "../speech-errors";
import { voiceLanguage } from "@/lib/voice-language";

/** The slice of the Web Speech API used here (not in every TypeScript DOM lib). */
interface RecognitionResultList {
  length: number;
  [index: number]: { isFinal: boolean; 0: { transcript: string } };
}
export interface Recognition {
  lang: string;
  continuous: boolean;
  interimResults: boolean;
  onresult: ((event: { resultIndex: number; results: RecognitionResultList }) => void) | null;
  onerror: ((event: { error: string }) => void) | null;
  onend: (() => void) | null;
  start(): void;
  stop(): void;
}
type RecognitionConstructor = new () => Recognition;

export function recognitionConstructor(): RecognitionConstructor | undefined {
  if (typeof window === "undefined") return undefined;
  const candidate = window as unknown as { SpeechRecognition?: RecognitionConstructor; webkitSpeechRecognition?: RecognitionConstructor };
  return candidate.SpeechRecognition ?? candidate.webkitSpeechRecognition;
}

export type VoiceState = "idle" | "listening" | "stopped" | "error";

/**
 * Voice input in the chosen voice language (en-US by default), continuous, with interim results; idle -> listening -> stopped or error.
 * Each final transcript goes to `onFinalTranscript`.
 */
export function useSpeechRecognition(onFinalTranscript: (text: string) => void) {
  const Constructor = recognitionConstructor();
  const [state, setState] = useState<VoiceState>("idle");
  const [interim, setInterim] = useState("");
  const [error, setError] = useState<string>();
  const recognitionRef = useRef<Recognition | null>(null);
  const onFinalRef = useRef(onFinalTranscript);
  onFinalRef.current = onFinalTranscript;

  const stop = useCallback(() => {
    recognitionRef.current?.stop();
  }, []);

  const start = useCallback(() => {
    if (!Constructor) return;
    const recognition = new Constructor();
    recognition.lang = voiceLanguage();
    recognition.continuous = true;
    recognition.interimResults = true;
    recognition.onresult = (event) => {
      let pending = "";
      for (let index = event.resultIndex; index < event.results.length; index++) {
        const result = event.results[index]!;
        const transcript = result[0].transcript;
        if (result.isFinal) {
          if (transcript.trim()) onFinalRef.current(transcript.trim());
        } else pending += transcript;
      }
      setInterim(pending);
    };
    recognition.onerror = (event) => {
      setError(speechErrorText(event.error));
      setState("error");
    };
    recognition.onend = () => {
      setInterim("");
      setState((current) => (current === "error" ? current : "stopped"));
      recognitionRef.current = null;
    };
    recognitionRef.current = recognition;
    setError(undefined);
    setState("listening");
    recognition.start();
  }, [Constructor]);

  useEffect(() => () => recognitionRef.current?.stop(), []);

  return { supported: Boolean(Constructor), state, interim, error, start, stop };
}
