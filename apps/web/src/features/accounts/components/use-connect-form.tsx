import { useId, useState, type FormEvent, type ReactNode } from "react";
import type { CreateAnyAccountRequest, TestConnectionResponse } from "@sage/contracts/accounts";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { toastError } from "@/components/ui/toast-error";
import { useCreateAccount, useTestConnection } from "../api/accounts";

type FieldProps = { type?: string; autoComplete?: string; required?: boolean; placeholder?: string };
type TextField<T> = { [K in keyof T]: T[K] extends string ? K : never }[keyof T] & string;

/**
 * What the three connect forms (mail, calendar, address book) share: the fields' state, a labelled text field,
 * Connect (which empties the form), and Test connection with its answer in words. Any edit forgets the last test.
 */
export function useConnectForm<T extends Record<string, string | boolean>>(options: {
  empty: T;
  request(form: T): CreateAnyAccountRequest;
  /** The toast's words when Connect fails for a reason the server does not give. */
  failure: string;
  /** What a successful or failed test says. */
  testText(tested: TestConnectionResponse): string;
  /** Whether a field is required unless it says otherwise. */
  required?: boolean;
}) {
  const [form, setForm] = useState(options.empty);
  const [tested, setTested] = useState<TestConnectionResponse | null>(null);
  const create = useCreateAccount();
  const test = useTestConnection();
  const id = useId();
  const set = (name: keyof T) => (value: string | boolean) => {
    setForm((old) => ({ ...old, [name]: value }));
    setTested(null);
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate(options.request(form), {
      // An emptied form says nothing of what it held: the test's words go with it (issue 52 item 17).
      onSuccess: () => {
        setForm(options.empty);
        setTested(null);
      },
      onError: (error) => toastError({ error, fallback: options.failure }),
    });
  };
  const field = (name: TextField<T>, label: string, props: FieldProps = {}) => (
    <div className="flex flex-col gap-1">
      <label htmlFor={`${id}-${name}`} className="text-sm font-medium">
        {label}
      </label>
      <Input
        id={`${id}-${name}`}
        value={form[name] as string}
        onChange={(event) => set(name)(event.target.value)}
        required={options.required ?? false}
        {...props}
      />
    </div>
  );
  const footer: ReactNode = (
    <>
      {tested && (
        <p role="status" className={`text-sm ${tested.ok ? "text-green-700 dark:text-green-400" : "text-destructive"}`}>
          {options.testText(tested)}
        </p>
      )}
      <div className="flex gap-2">
        <Button
          type="button"
          variant="outline"
          disabled={test.isPending}
          onClick={() =>
            test.mutate(options.request(form), { onSuccess: setTested, onError: (error) => toastError({ error, fallback: "Failed to test the connection" }) })
          }
        >
          {test.isPending ? "Testing..." : "Test connection"}
        </Button>
        <Button type="submit" disabled={create.isPending}>
          Connect
        </Button>
      </div>
    </>
  );
  return { form, set, id, field, submit, footer };
}
