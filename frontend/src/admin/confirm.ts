// The spec's question before any admin delete, worded as the spec has it.
export const DELETE_CONFIRM = 'do you wnat delete';
