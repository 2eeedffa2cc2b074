# Charleston practice card, written in riichi_advanced's American notation for the import tests.
# An original card of the Charleston project (data/cards/practice.toml): no line of any published card.

.win_definition = [
    # 2026
    "2026a NNNN 66b SSSS",
    "FFFFF 2026a 66b 666c",
    "FFF 22a 000 6666a 22b",
    "2026a 2222b 6666b FF",
    "2026a EEEE 2222b 66c", # concealed
    # 2468
    "DDa 2222a 88a 444b 666b",
    "2468a FFFF 2222b 88b",
    "EEEE 444a 66a 888a WW",
    "WWW 44a 888a 22b 6666b",
    "22a 44a DDDa 66b 88b DDDb", # concealed
    "FFF 2222a 444b 8888c", "FFF 2222a 666b 8888c",
    "2222a 88a 44b 66b 2222c",
    # Any Like Numbers
    "XXXX0a NN XXXX0b SS XX0c",
    "NEWS XXXX0a XX0b XXXX0c", # concealed
    "FFF XXX0a DDa XXXX0b DDb",
    "X0a XX0b XXX0c FFFFF EEE",
    # Quints
    "22a 44444a 66a 88888b",
    "DDDDDa XXXX0a FFFFF",
    "11111a 33b 55555c FF", "33333a 55b 77777c FF", "55555a 77b 99999c FF",
    "NNNNN 2468a EEEEE", # concealed
    # Consecutive Run
    "XX0a XXX1b XX2a XXX3b EEEE|WWWW",
    "XX0a XX1a XX2a XXX3b XXX4b DDb",
    "NNN X0a X1a X2a X3a X4a SSS FFF",
    "FF XX0a XXX1b XXX2c XXXX3a",
    "X0a X1a X2a X3a XX4b XX5b XXX6c XXX7c", # concealed
    "XXX0a DDDDb XXX1a DDDDc",
    "SSSS XX0a XXX1b XX2a EEE",
    "XXXX0a X1b X2b X3b XXXX4c FFF",
    # 13579
    "1111a 357b 9999c DDDa",
    "1111a 555a 9999a DDDb",
    "111a 333a 555b 777b NN", "333a 555a 777b 999b NN",
    "11a DDDa 55b DDDb 99c DDc", # concealed
    "1111a 33a 7777b 99b FF",
    "3333a 5555a 77b NNNN", "5555a 7777a 99b NNNN", "3333a 5555a 77b SSSS", "5555a 7777a 99b SSSS",
    "11a 555a 99a 33b 77b DDDc",
    "FFFF 1111a 35a 7777a", "FFFF 3333a 57a 9999a",
    # Winds-Dragons
    "FF DDa DDDb DDDDc SSS",
    "NEWS FFF DDDDa DDDb",
    "EEE WWW FFFFF DDDa",
    "NNN SSS XXXX0a DDDDa",
    "EEEE WWWW DDa DDb DDc", # concealed
    "EE NNNNN DDDa SSSS",
    # 369
    "33a 666a 99a DDDDb FFF",
    "369a 3333b 9999b FFF",
    "333a DDDa 666b DDDb 99c", # concealed
    "3333a 6666a 9999b EE", "3333a 6666a 9999b WW",
    "FF 369a 33b 66b 99b 999c",
    # Singles and Pairs
    "NN 2468a 2468b DDc FF", # concealed
    "1223a 4556b 7889c FF", # concealed
    "NEWS 11a 99a 11b 99b 55c", # concealed
    "1a 33a 5a 77a 9a 1b 33b 5b 77b 9b" # concealed
  ]
|
.open_win_definition = [
    # 2026
    "2026a NNNN 66b SSSS",
    "FFFFF 2026a 66b 666c",
    "FFF 22a 000 6666a 22b",
    "2026a 2222b 6666b FF",
    # 2468
    "DDa 2222a 88a 444b 666b",
    "2468a FFFF 2222b 88b",
    "EEEE 444a 66a 888a WW",
    "WWW 44a 888a 22b 6666b",
    "FFF 2222a 444b 8888c", "FFF 2222a 666b 8888c",
    "2222a 88a 44b 66b 2222c",
    # Any Like Numbers
    "XXXX0a NN XXXX0b SS XX0c",
    "FFF XXX0a DDa XXXX0b DDb",
    "X0a XX0b XXX0c FFFFF EEE",
    # Quints
    "22a 44444a 66a 88888b",
    "DDDDDa XXXX0a FFFFF",
    "11111a 33b 55555c FF", "33333a 55b 77777c FF", "55555a 77b 99999c FF",
    # Consecutive Run
    "XX0a XXX1b XX2a XXX3b EEEE|WWWW",
    "XX0a XX1a XX2a XXX3b XXX4b DDb",
    "NNN X0a X1a X2a X3a X4a SSS FFF",
    "FF XX0a XXX1b XXX2c XXXX3a",
    "XXX0a DDDDb XXX1a DDDDc",
    "SSSS XX0a XXX1b XX2a EEE",
    "XXXX0a X1b X2b X3b XXXX4c FFF",
    # 13579
    "1111a 357b 9999c DDDa",
    "1111a 555a 9999a DDDb",
    "111a 333a 555b 777b NN", "333a 555a 777b 999b NN",
    "1111a 33a 7777b 99b FF",
    "3333a 5555a 77b NNNN", "5555a 7777a 99b NNNN", "3333a 5555a 77b SSSS", "5555a 7777a 99b SSSS",
    "11a 555a 99a 33b 77b DDDc",
    "FFFF 1111a 35a 7777a", "FFFF 3333a 57a 9999a",
    # Winds-Dragons
    "FF DDa DDDb DDDDc SSS",
    "NEWS FFF DDDDa DDDb",
    "EEE WWW FFFFF DDDa",
    "NNN SSS XXXX0a DDDDa",
    "EE NNNNN DDDa SSSS",
    # 369
    "33a 666a 99a DDDDb FFF",
    "369a 3333b 9999b FFF",
    "3333a 6666a 9999b EE", "3333a 6666a 9999b WW",
    "FF 369a 33b 66b 99b 999c"
    # Singles and Pairs
  ]
|
.singles_win_definition = [
    "NN 2468a 2468b DDc FF", "1223a 4556b 7889c FF", "NEWS 11a 99a 11b 99b 55c", "1a 33a 5a 77a 9a 1b 33b 5b 77b 9b"
  ]
|
.yaku = [
    { "display_name": "2026 #1", "value": 30, "when": [{"name": "match", "opts": [["hand", "call_tiles", "winning_tile"], ["2026a NNNN 66b SSSS"]]}] },
    { "display_name": "2026 #2", "value": 30, "when": [{"name": "match", "opts": [["hand", "call_tiles", "winning_tile"], ["FFFFF 2026a 66b 666c"]]}] },
    { "display_name": "2026 #3", "value": 25, "when": [{"name": "match", "opts": [["hand", "call_tiles", "winning_tile"], ["FFF 22a 000 6666a 22b"]]}] },
    { "display_name": "2026 #4", "value": 25, "when": [{"name": "match", "opts": [["hand", "call_tiles", "winning_tile"], ["2026a 2222b 6666b FF"]]}] },
    { "display_name": "2026 #5", "value": 35, "when": [{"name": "has_no_call_named", "opts": ["am_pung", "am_kong", "am_quint"]}, {"name": "match", "opts": [["hand", "call_tiles", "winning_tile"], ["2026a EEEE 2222b 66c"]]}] },
    { "display_name": "2468 #1", "value": 25, "when": [{"name": "match", "opts": [["hand", "call_tiles", "winning_tile"], ["DDa 2222a 88a 444b 666b"]]}] },
    { "display_name": "2468 #2", "value": 30, "when": [{"name": "match", "opts": [["hand", "call_tiles", "winning_tile"], ["2468a FFFF 2222b 88b"]]}] },
    { "display_name": "2468 #3", "value": 25, "when": [{"name": "match", "opts": [["hand", "call_tiles", "winning_tile"], ["EEEE 444a 66a 888a WW"]]}] },
    { "display_name": "2468 #4", "value": 25, "when": [{"name": "match", "opts": [["hand", "call_tiles", "winning_tile"], ["WWW 44a 888a 22b 6666b"]]}] },
    { "display_name": "2468 #5", "value": 35, "when": [{"name": "has_no_call_named", "opts": ["am_pung", "am_kong", "am_quint"]}, {"name": "match", "opts": [["hand", "call_tiles", "winning_tile"], ["22a 44a DDDa 66b 88b DDDb"]]}] },
    { "display_name": "2468 #6", "value": 25, "when": [{"name": "match", "opts": [["hand", "call_tiles", "winning_tile"], ["FFF 2222a 444b 8888c", "FFF 2222a 666b 8888c"]]}] },
    { "display_name": "2468 #7", "value": 25, "when": [{"name": "match", "opts": [["hand", "call_tiles", "winning_tile"], ["2222a 88a 44b 66b 2222c"]]}] },
    { "display_name": "Any Like Numbers #1", "value": 30, "when": [{"name": "match", "opts": [["hand", "call_tiles", "winning_tile"], ["XXXX0a NN XXXX0b SS XX0c"]]}] },
    { "display_name": "Any Like Numbers #2", "value": 40, "when": [{"name": "has_no_call_named", "opts": ["am_pung", "am_kong", "am_quint"]}, {"name": "match", "opts": [["hand", "call_tiles", "winning_tile"], ["NEWS XXXX0a XX0b XXXX0c"]]}] },
    { "display_name": "Any Like Numbers #3", "value": 25, "when": [{"name": "match", "opts": [["hand", "call_tiles", "winning_tile"], ["FFF XXX0a DDa XXXX0b DDb"]]}] },
    { "display_name": "Any Like Numbers #4", "value": 30, "when": [{"name": "match", "opts": [["hand", "call_tiles", "winning_tile"], ["X0a XX0b XXX0c FFFFF EEE"]]}] },
    { "display_name": "Quints #1", "value": 40, "when": [{"name": "match", "opts": [["hand", "call_tiles", "winning_tile"], ["22a 44444a 66a 88888b"]]}] },
    { "display_name": "Quints #2", "value": 45, "when": [{"name": "match", "opts": [["hand", "call_tiles", "winning_tile"], ["DDDDDa XXXX0a FFFFF"]]}] },
    { "display_name": "Quints #3", "value": 40, "when": [{"name": "match", "opts": [["hand", "call_tiles", "winning_tile"], ["11111a 33b 55555c FF", "33333a 55b 77777c FF", "55555a 77b 99999c FF"]]}] },
    { "display_name": "Quints #4", "value": 50, "when": [{"name": "has_no_call_named", "opts": ["am_pung", "am_kong", "am_quint"]}, {"name": "match", "opts": [["hand", "call_tiles", "winning_tile"], ["NNNNN 2468a EEEEE"]]}] },
    { "display_name": "Consecutive Run #1", "value": 25, "when": [{"name": "match", "opts": [["hand", "call_tiles", "winning_tile"], ["XX0a XXX1b XX2a XXX3b EEEE|WWWW"]]}] },
    { "display_name": "Consecutive Run #2", "value": 30, "when": [{"name": "match", "opts": [["hand", "call_tiles", "winning_tile"], ["XX0a XX1a XX2a XXX3b XXX4b DDb"]]}] },
    { "display_name": "Consecutive Run #3", "value": 30, "when": [{"name": "match", "opts": [["hand", "call_tiles", "winning_tile"], ["NNN X0a X1a X2a X3a X4a SSS FFF"]]}] },
    { "display_name": "Consecutive Run #4", "value": 25, "when": [{"name": "match", "opts": [["hand", "call_tiles", "winning_tile"], ["FF XX0a XXX1b XXX2c XXXX3a"]]}] },
    { "display_name": "Consecutive Run #5", "value": 40, "when": [{"name": "has_no_call_named", "opts": ["am_pung", "am_kong", "am_quint"]}, {"name": "match", "opts": [["hand", "call_tiles", "winning_tile"], ["X0a X1a X2a X3a XX4b XX5b XXX6c XXX7c"]]}] },
    { "display_name": "Consecutive Run #6", "value": 35, "when": [{"name": "match", "opts": [["hand", "call_tiles", "winning_tile"], ["XXX0a DDDDb XXX1a DDDDc"]]}] },
    { "display_name": "Consecutive Run #7", "value": 25, "when": [{"name": "match", "opts": [["hand", "call_tiles", "winning_tile"], ["SSSS XX0a XXX1b XX2a EEE"]]}] },
    { "display_name": "Consecutive Run #8", "value": 30, "when": [{"name": "match", "opts": [["hand", "call_tiles", "winning_tile"], ["XXXX0a X1b X2b X3b XXXX4c FFF"]]}] },
    { "display_name": "13579 #1", "value": 30, "when": [{"name": "match", "opts": [["hand", "call_tiles", "winning_tile"], ["1111a 357b 9999c DDDa"]]}] },
    { "display_name": "13579 #2", "value": 25, "when": [{"name": "match", "opts": [["hand", "call_tiles", "winning_tile"], ["1111a 555a 9999a DDDb"]]}] },
    { "display_name": "13579 #3", "value": 25, "when": [{"name": "match", "opts": [["hand", "call_tiles", "winning_tile"], ["111a 333a 555b 777b NN", "333a 555a 777b 999b NN"]]}] },
    { "display_name": "13579 #4", "value": 40, "when": [{"name": "has_no_call_named", "opts": ["am_pung", "am_kong", "am_quint"]}, {"name": "match", "opts": [["hand", "call_tiles", "winning_tile"], ["11a DDDa 55b DDDb 99c DDc"]]}] },
    { "display_name": "13579 #5", "value": 25, "when": [{"name": "match", "opts": [["hand", "call_tiles", "winning_tile"], ["1111a 33a 7777b 99b FF"]]}] },
    { "display_name": "13579 #6", "value": 30, "when": [{"name": "match", "opts": [["hand", "call_tiles", "winning_tile"], ["3333a 5555a 77b NNNN", "5555a 7777a 99b NNNN", "3333a 5555a 77b SSSS", "5555a 7777a 99b SSSS"]]}] },
    { "display_name": "13579 #7", "value": 30, "when": [{"name": "match", "opts": [["hand", "call_tiles", "winning_tile"], ["11a 555a 99a 33b 77b DDDc"]]}] },
    { "display_name": "13579 #8", "value": 30, "when": [{"name": "match", "opts": [["hand", "call_tiles", "winning_tile"], ["FFFF 1111a 35a 7777a", "FFFF 3333a 57a 9999a"]]}] },
    { "display_name": "Winds-Dragons #1", "value": 25, "when": [{"name": "match", "opts": [["hand", "call_tiles", "winning_tile"], ["FF DDa DDDb DDDDc SSS"]]}] },
    { "display_name": "Winds-Dragons #2", "value": 30, "when": [{"name": "match", "opts": [["hand", "call_tiles", "winning_tile"], ["NEWS FFF DDDDa DDDb"]]}] },
    { "display_name": "Winds-Dragons #3", "value": 35, "when": [{"name": "match", "opts": [["hand", "call_tiles", "winning_tile"], ["EEE WWW FFFFF DDDa"]]}] },
    { "display_name": "Winds-Dragons #4", "value": 30, "when": [{"name": "match", "opts": [["hand", "call_tiles", "winning_tile"], ["NNN SSS XXXX0a DDDDa"]]}] },
    { "display_name": "Winds-Dragons #5", "value": 40, "when": [{"name": "has_no_call_named", "opts": ["am_pung", "am_kong", "am_quint"]}, {"name": "match", "opts": [["hand", "call_tiles", "winning_tile"], ["EEEE WWWW DDa DDb DDc"]]}] },
    { "display_name": "Winds-Dragons #6", "value": 35, "when": [{"name": "match", "opts": [["hand", "call_tiles", "winning_tile"], ["EE NNNNN DDDa SSSS"]]}] },
    { "display_name": "369 #1", "value": 25, "when": [{"name": "match", "opts": [["hand", "call_tiles", "winning_tile"], ["33a 666a 99a DDDDb FFF"]]}] },
    { "display_name": "369 #2", "value": 30, "when": [{"name": "match", "opts": [["hand", "call_tiles", "winning_tile"], ["369a 3333b 9999b FFF"]]}] },
    { "display_name": "369 #3", "value": 35, "when": [{"name": "has_no_call_named", "opts": ["am_pung", "am_kong", "am_quint"]}, {"name": "match", "opts": [["hand", "call_tiles", "winning_tile"], ["333a DDDa 666b DDDb 99c"]]}] },
    { "display_name": "369 #4", "value": 25, "when": [{"name": "match", "opts": [["hand", "call_tiles", "winning_tile"], ["3333a 6666a 9999b EE", "3333a 6666a 9999b WW"]]}] },
    { "display_name": "369 #5", "value": 30, "when": [{"name": "match", "opts": [["hand", "call_tiles", "winning_tile"], ["FF 369a 33b 66b 99b 999c"]]}] },
    { "display_name": "Singles and Pairs #1", "value": 50, "when": [{"name": "has_no_call_named", "opts": ["am_pung", "am_kong", "am_quint"]}, {"name": "match", "opts": [["hand", "call_tiles", "winning_tile"], ["NN 2468a 2468b DDc FF"]]}] },
    { "display_name": "Singles and Pairs #2", "value": 60, "when": [{"name": "has_no_call_named", "opts": ["am_pung", "am_kong", "am_quint"]}, {"name": "match", "opts": [["hand", "call_tiles", "winning_tile"], ["1223a 4556b 7889c FF"]]}] },
    { "display_name": "Singles and Pairs #3", "value": 50, "when": [{"name": "has_no_call_named", "opts": ["am_pung", "am_kong", "am_quint"]}, {"name": "match", "opts": [["hand", "call_tiles", "winning_tile"], ["NEWS 11a 99a 11b 99b 55c"]]}] },
    { "display_name": "Singles and Pairs #4", "value": 55, "when": [{"name": "has_no_call_named", "opts": ["am_pung", "am_kong", "am_quint"]}, {"name": "match", "opts": [["hand", "call_tiles", "winning_tile"], ["1a 33a 5a 77a 9a 1b 33b 5b 77b 9b"]]}] }
  ]
