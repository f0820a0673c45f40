/**
 * NOTE(api): no answer is documented near this size (a page is 100 objects; a term's text a few
 * megabytes): one beyond it is a wrong URL or a broken service, and read whole it would hold
 * gigabytes (a string of over 512 MB cannot even be made), so it is refused, once, not read. A
 * module of its own: validate checks against it (a playbook's rules are one answer) without
 * loading the HTTP client.
 */
export const MAX_BODY_BYTES = 64 * 1024 * 1024;
