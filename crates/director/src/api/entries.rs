//! The registration desk (报名处): register, refuse, edit, fees, check-in, drawing pairing
//! numbers, withdrawals and absences, team rosters.
