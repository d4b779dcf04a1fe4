// What an API's texts say to its human readers and not to a model calling the tool, taken out of
// the imported texts before they are cleaned (describe.ts): sentences that only point to another
// page ("For more information, see [Media types](https://...)."), whose link the listing cannot
// keep, and a description's list of the media types an operation answers in: the tool's caller
// cannot ask for one (an Accept header parameter is no input, inputs.ts).

const LINK = String.raw`"?\[[^\]\n]+\]\([^)\s]+\)"?`;
// "For more information[ about X], see <link>[ and <link>][ in the Y documentation]." (the whole sentence).
const POINTER = new RegExp(
  String.raw`(^|[.!?:]["')]?[ \t]+|\n)[ \t]*(?:For more (?:information|details)|To learn more)(?: [^.\n\[]{0,80}?)?,? see (?:the )?${LINK}(?:,?\s+(?:and|or)\s+${LINK})*(?: in (?:the )?[^.\n\[]{0,60}?)?\."?(?=\s|$)`,
  "g",
);

/** The text without its sentences that only point to another page by a link. */
export function withoutPointers(text: string): string {
  return text.replace(POINTER, (_, lead: string) => lead.replace(/[ \t]+$/, ""));
}

// A list item that names a media type: "- **`application/vnd.github.raw+json`**: Returns ...".
const MEDIA_ITEM = /^\s*[-*+]\s+(?:\*\*|__)?`?[a-z]+\/[\w.+-]+`?(?:\*\*|__)?\s*:/;

/** The text without its lines that list media types, and the sentences before them that introduce the list. */
export function withoutMediaTypeLists(text: string): string {
  const lines = text.split("\n");
  if (!lines.some((l) => MEDIA_ITEM.test(l))) return text;
  const kept: string[] = [];
  for (const line of lines) {
    if (!MEDIA_ITEM.test(line)) {
      kept.push(line);
      continue;
    }
    let last = kept.length - 1;
    while (last >= 0 && !kept[last].trim()) last--;
    if (last >= 0 && MEDIA_TYPES.test(kept[last])) kept[last] = withoutSentences(kept[last], MEDIA_TYPES);
  }
  return kept.join("\n");
}

const MEDIA_TYPES = /media types?\b/i;

/** The line without its sentences that say `about`. */
function withoutSentences(line: string, about: RegExp): string {
  return line
    .split(/(?<=[.!?]"?)\s+/)
    .filter((sentence) => !about.test(sentence))
    .join(" ");
}
