package acemq
