# Made-up lines for the import tests: a riichi_advanced card file with win definitions only (no .yaku, so no
# values), its sections and concealed lines told by comments. Invented for Charleston: no published card's lines.
.win_definition = [
    # Evens
    "FF 4444a 2222b 8888c", "FF 6666a 2222b 8888c",
    "22a 66a 444a 888a DDDDb", # concealed
    # Winds
    "NNN EEE WWW SSS 11a"
  ]
