//! The rounds (编排与成绩): pair, publish, undo, results, confirmation, corrections, knockout
//! games, closing the event.
