# Made-up lines for the import tests: a riichi_advanced card file with win definitions only (no .yaku, so no
# values), its sections and concealed lines told by comments. Invented for Charleston: no published card's lines.
.win_definition = [
    # Evens
    "FF 2222a 4444b 6666c", "FF 4444a 6666b 8888c",
    "22a 44a 666a 888a DDDDb", # concealed
    # Winds
    "NNN EEE WWW SSS 11a"
  ]
