"""Five-card stud (RULES §5): rules engine, observation, scripted API and bots."""
