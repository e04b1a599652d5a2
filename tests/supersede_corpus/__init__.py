"""The labelled supersede groups (tests/data/supersede/groups_tune.json and groups_check.json, each written blind by a different
hand): loading them, and measuring the reading and the draft on them (issue 38, "Done when")."""
