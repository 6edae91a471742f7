import { DAVClient, type DAVAddressBook } from "tsdav";
import { calendarFetch, connectionProblem, type FetchTrace } from "../calendar/calendar-fetch.ts";
import type { PrivateAddressRule } from "../mail/allowed-host.ts";
import { MailConnectionError } from "../mail/mail-connection-error.ts";

export interface CarddavServer {
  url: string;
  user: string;
  password: string;
}

/** One contact as the server holds it: a vCard resource. */
export interface ContactCardData {
  href: string;
  etag: string | null;
  vcard: string;
}

export interface CarddavConnection {
  addressBooks: { url: string; name: string }[];
  /** Every vCard of every address book. */
  cards(): Promise<ContactCardData[]>;
}

const nameOf = (book: DAVAddressBook) =>
  typeof book.displayName === "string" && book.displayName.trim()
    ? book.displayName.trim()
    : decodeURIComponent(book.url.split("/").filter(Boolean).pop() ?? "Contacts");

/** A failure sorted by what the server answered (401/403: login; 404: no address book there). */
function failure(error: unknown, trace: FetchTrace): MailConnectionError {
  if (error instanceof MailConnectionError) return error;
  if (trace.statuses.some((status) => status === 401 || status === 403)) return new MailConnectionError("login", "refused");
  if (trace.statuses.at(-1) === 404) return new MailConnectionError("not-found", "404");
  if ((error as { cause?: unknown }).cause || (error as { code?: string }).code) return connectionProblem(error);
  return new MailConnectionError("not-addressbook", "no address book");
}

/**
 * Logs in to a CardDAV server with tsdav (discovery: .well-known, principal, address-book home) through the
 * calendars' guarded fetch (private addresses refused unless allowed), and lists its address books. Failures are
 * MailConnectionErrors naming the step, as for calendars.
 */
export async function connectCarddav(server: CarddavServer, rule: PrivateAddressRule): Promise<CarddavConnection> {
  const trace: FetchTrace = { statuses: [] };
  const client = new DAVClient({
    serverUrl: server.url,
    credentials: { username: server.user, password: server.password },
    authMethod: "Basic",
    defaultAccountType: "carddav",
    fetch: calendarFetch(rule, trace),
  });
  let books: DAVAddressBook[];
  try {
    await client.login();
    books = await client.fetchAddressBooks();
  } catch (error) {
    throw failure(error, trace);
  }
  if (trace.statuses.some((status) => status === 401 || status === 403)) throw new MailConnectionError("login", "refused");
  if (books.length === 0) throw new MailConnectionError("not-addressbook", "no address books");
  return {
    addressBooks: books.map((book) => ({ url: book.url, name: nameOf(book) })),
    async cards() {
      const all: ContactCardData[] = [];
      for (const addressBook of books) {
        try {
          for (const card of await client.fetchVCards({ addressBook })) {
            if (typeof card.data !== "string" || !/BEGIN:VCARD/i.test(card.data)) continue;
            all.push({ href: card.url, etag: card.etag ?? null, vcard: card.data });
          }
        } catch (error) {
          throw failure(error, trace);
        }
      }
      return all;
    },
  };
}
