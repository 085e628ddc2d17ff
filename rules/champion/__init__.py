"""Champion of the Empire (A birodalom bajnoka): heroes roam the Roman Empire of AD 115, gather
information and slay a mythological monster."""
