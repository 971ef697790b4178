"""Random commands built from the tokens summarize_shell_command reacts to, each with what the
installed Hermes 0.19.0 function returns for it. Run with the pinned venv's python (its
site-packages on the path); writes the JSON pairs that shellSummaryCheck.ts replays against the emulator."""
import json
import random
import sys

from agent.display import summarize_shell_command

random.seed(11)
TOKENS = ["echo", "a", "b", "cd", "x", "/bin/", "A=1", "1", "2", ">", ">>", "<", "&", "&&", "|", "||", ";", "'", '"', "\\",
          "$?", "${", "--", "-", "=", "_exit=", "PIPESTATUS", "head", "wc", "sort", " ", " ", " ", "\u0663", "\u00e9", "\u0661",
          "\t", "\n", "true", ":", "export", "\u0085", "\u001c", "\ufeff", "\u00a0", "\u2028", "\u00b2", "\u2460", "A\u00b2=1", "\u3000"]
pairs = []
for _ in range(200000):
    command = "".join(random.choice(TOKENS) + random.choice(["", " "]) for _ in range(random.randint(1, 12)))
    pairs.append([command, summarize_shell_command(command)])
json.dump(pairs, open(sys.argv[1], "w"))
