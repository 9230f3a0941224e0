/** The shows to pick from, loaded once by the staff page for all three tabs. */
export type ShowOptions = { value: string; label: string }[];
