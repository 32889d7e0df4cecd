// Migration 7: an answer in a conversation keeps the passages it was drawn from, so a conversation
// reopened from the history shows them as it did when asked (the window lists them under the answer).
// Conversations saved before keep an empty list.
export default /* sql */ `
ALTER TABLE chat_messages ADD COLUMN contexts TEXT NOT NULL DEFAULT '[]';
`;
