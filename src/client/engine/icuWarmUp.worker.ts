/**
 * ICU's first use in the page's process, on this worker's thread (engine/dateFieldAhead.ts): a date formatted in the
 * browser's language loads what a date field's format then finds ready.
 */
new Intl.DateTimeFormat(navigator.language).format(new Date());
postMessage('warm');
