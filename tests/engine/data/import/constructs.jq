# Made-up lines in riichi_advanced's American notation, one construct of the notation (or one mistake) each, for
# the import tests (tests/engine/test_cardimport.py). Invented for Charleston: no line of any published card.
# The values of section Mistakes are set so that one stands out.

.win_definition = [
    # Constructs
    "NEWS RRR GGG 0000",
    "FFFF EW NN SS DDDDa",
    "ZZZ 1111a 2222a FFF",
    "ZZZ 11a ZZZ 2222b FF",
    "FF 2026a XXX0b XXX0c DDa",
    "XX1a XXX2a XXXX3a FFFFF",
    "XXX0a 5555b XXX0c FFFF",
    "FF 8888a|4444a 6666b 2222c",
    "FFFF 11a|22a|33a|44a|55a|66a|77a|88a|99a 2222b|4444b|6666b 8888c",
    "2468Da 2468Db NN SS",
    "SS 3333a 7777a 10b EE",
    "05a 10a 15a NNNN EEEE",
    "XXXX0a XXXX0b XXX0c EEE",
    "X0a X1a X2a X3a X4a XXXX0b XXXXX4c",
    "FFF 1111a FFF 2222b",
    "11a 333a 11a 4444b DDDc",
    "FF 1357a 2468b 11c 99c", # concealed
    "FF 135a 777a 99b 5555c", # concealed
    "NNNN 3333a 6666b 99c", # concealed
    # Mistakes
    "FF 2222a 4444b 666c",
    "FFF 2222a 4444b 6666c",
    "JJ 2222a 4444b 6666c",
    "QQ 2222a 4444b 6666c",
    "XXXX0 1111a 2222b FF",
    "DDD 3333a 6666a NNNN",
    "FF 3333a 7777b 9999c",
    "FF 1111a 7777b 9999c",
    "EE 1111a 3333b 5555c",
    "WW 1111a 3333b 5555c",
    "NN 2222a 4444b 6666c",
    "SS 2222a 4444b 6666c"
  ]
|
.open_win_definition = [
    "NEWS RRR GGG 0000", "FFFF EW NN SS DDDDa", "ZZZ 1111a 2222a FFF", "ZZZ 11a ZZZ 2222b FF",
    "FF 2026a XXX0b XXX0c DDa", "XX1a XXX2a XXXX3a FFFFF", "XXX0a 5555b XXX0c FFFF", "FF 8888a|4444a 6666b 2222c",
    "FFFF 11a|22a|33a|44a|55a|66a|77a|88a|99a 2222b|4444b|6666b 8888c", "2468Da 2468Db NN SS",
    "SS 3333a 7777a 10b EE", "05a 10a 15a NNNN EEEE", "XXXX0a XXXX0b XXX0c EEE",
    "X0a X1a X2a X3a X4a XXXX0b XXXXX4c", "FFF 1111a FFF 2222b", "11a 333a 11a 4444b DDDc",
    "FF 2222a 4444b 666c", "FFF 2222a 4444b 6666c", "JJ 2222a 4444b 6666c", "QQ 2222a 4444b 6666c",
    "XXXX0 1111a 2222b FF", "DDD 3333a 6666a NNNN", "FF 3333a 7777b 9999c", "FF 1111a 7777b 9999c",
    "EE 1111a 3333b 5555c", "WW 1111a 3333b 5555c", "NN 2222a 4444b 6666c"
  ]
|
.singles_win_definition = [
    "FF 1357a 2468b 11c 99c",
    "FF 135a 777a 99b 5555c"
  ]
|
.yaku = [
    { "display_name": "Constructs #1", "value": 25, "when": [{"name": "match", "opts": [["hand", "call_tiles", "winning_tile"], ["NEWS RRR GGG 0000"]]}] },
    { "display_name": "Constructs #2", "value": 25, "when": [{"name": "match", "opts": [["hand", "call_tiles", "winning_tile"], ["FFFF EW NN SS DDDDa"]]}] },
    { "display_name": "Constructs #3", "value": 25, "when": [{"name": "match", "opts": [["hand", "call_tiles", "winning_tile"], ["ZZZ 1111a 2222a FFF"]]}] },
    { "display_name": "Constructs #4", "value": 30, "when": [{"name": "match", "opts": [["hand", "call_tiles", "winning_tile"], ["ZZZ 11a ZZZ 2222b FF"]]}] },
    { "display_name": "Constructs #5", "value": 30, "when": [{"name": "match", "opts": [["hand", "call_tiles", "winning_tile"], ["FF 2026a XXX0b XXX0c DDa"]]}] },
    { "display_name": "Constructs #6", "value": 25, "when": [{"name": "match", "opts": [["hand", "call_tiles", "winning_tile"], ["XX1a XXX2a XXXX3a FFFFF"]]}] },
    { "display_name": "Constructs #7", "value": 25, "when": [{"name": "match", "opts": [["hand", "call_tiles", "winning_tile"], ["XXX0a 5555b XXX0c FFFF"]]}] },
    { "display_name": "Constructs #8", "value": 25, "when": [{"name": "match", "opts": [["hand", "call_tiles", "winning_tile"], ["FF 8888a|4444a 6666b 2222c"]]}] }
  ]
|
.yaku += [
    { "display_name": "Constructs #9", "value": 30, "when": [{"name": "match", "opts": [["hand", "call_tiles", "winning_tile"], ["FFFF 11a|22a|33a|44a|55a|66a|77a|88a|99a 2222b|4444b|6666b 8888c"]]}] },
    { "display_name": "Constructs #10", "value": 30, "when": [{"name": "match", "opts": [["hand", "call_tiles", "winning_tile"], ["2468Da 2468Db NN SS"]]}] },
    { "display_name": "Constructs #11", "value": 25, "when": [{"name": "match", "opts": [["hand", "call_tiles", "winning_tile"], ["SS 3333a 7777a 10b EE"]]}] },
    { "display_name": "Constructs #12", "value": 30, "when": [{"name": "match", "opts": [["hand", "call_tiles", "winning_tile"], ["05a 10a 15a NNNN EEEE"]]}] },
    { "display_name": "Constructs #13", "value": 25, "when": [{"name": "match", "opts": [["hand", "call_tiles", "winning_tile"], ["XXXX0a XXXX0b XXX0c EEE"]]}] },
    { "display_name": "Constructs #14", "value": 30, "when": [{"name": "match", "opts": [["hand", "call_tiles", "winning_tile"], ["X0a X1a X2a X3a X4a XXXX0b XXXXX4c"]]}] },
    { "display_name": "Constructs #15", "value": 25, "when": [{"name": "match", "opts": [["hand", "call_tiles", "winning_tile"], ["FFF 1111a FFF 2222b"]]}] },
    { "display_name": "Constructs #16", "value": 25, "when": [{"name": "match", "opts": [["hand", "call_tiles", "winning_tile"], ["11a 333a 11a 4444b DDDc"]]}] },
    { "display_name": "Constructs #17", "value": 50, "when": [{"name": "has_no_call_named", "opts": ["am_pung", "am_kong", "am_quint"]}, {"name": "match", "opts": [["hand", "call_tiles", "winning_tile"], ["FF 1357a 2468b 11c 99c"]]}] },
    { "display_name": "Constructs #18", "value": 30, "when": [{"name": "has_no_call_named", "opts": ["am_pung", "am_kong", "am_quint"]}, {"name": "match", "opts": [["hand", "call_tiles", "winning_tile"], ["FF 135a 777a 99b 5555c"]]}] },
    { "display_name": "Constructs #19", "value": 30, "when": [{"name": "has_no_call_named", "opts": ["am_pung", "am_kong", "am_quint"]}, {"name": "match", "opts": [["hand", "call_tiles", "winning_tile"], ["NNNN 3333a 6666b 99c"]]}] },
    { "display_name": "Mistakes #1", "value": 25, "when": [{"name": "match", "opts": [["hand", "call_tiles", "winning_tile"], ["FF 2222a 4444b 666c"]]}] },
    { "display_name": "Mistakes #2", "value": 25, "when": [{"name": "match", "opts": [["hand", "call_tiles", "winning_tile"], ["FFF 2222a 4444b 6666c"]]}] },
    { "display_name": "Mistakes #3", "value": 25, "when": [{"name": "match", "opts": [["hand", "call_tiles", "winning_tile"], ["JJ 2222a 4444b 6666c"]]}] },
    { "display_name": "Mistakes #4", "value": 25, "when": [{"name": "match", "opts": [["hand", "call_tiles", "winning_tile"], ["QQ 2222a 4444b 6666c"]]}] },
    { "display_name": "Mistakes #5", "value": 25, "when": [{"name": "match", "opts": [["hand", "call_tiles", "winning_tile"], ["XXXX0 1111a 2222b FF"]]}] },
    { "display_name": "Mistakes #6", "value": 25, "when": [{"name": "match", "opts": [["hand", "call_tiles", "winning_tile"], ["DDD 3333a 6666a NNNN"]]}] },
    { "display_name": "Mistakes #7", "value": 75, "when": [{"name": "match", "opts": [["hand", "call_tiles", "winning_tile"], ["FF 3333a 7777b 9999c"]]}] },
    { "display_name": "Mistakes #8", "value": "25", "when": [{"name": "match", "opts": [["hand", "call_tiles", "winning_tile"], ["FF 1111a 7777b 9999c"]]}] },
    { "display_name": "Mistakes #9", "value": 25, "when": [{"name": "not_match", "opts": [["hand", "call_tiles", "winning_tile"], ["EE 1111a 1111b 1111c"]]}, {"name": "match", "opts": [["hand", "call_tiles", "winning_tile"], ["EE 1111a 3333b 5555c"]]}] },
    { "display_name": "Mistakes #10", "value": 25, "when": [{"name": "has_no_call_named", "opts": ["am_pung", "am_kong", "am_quint"]}, {"name": "match", "opts": [["hand", "call_tiles", "winning_tile"], ["WW 1111a 3333b 5555c"]]}] },
    { "display_name": "Mistakes #11", "value": 25, "when": [{"name": "match", "opts": [["hand", "call_tiles", "winning_tile"], ["NN 2222a 4444b 6666c"]]}] },
    { "display_name": "Mistakes #12", "value": 25, "when": [{"name": "match", "opts": [["hand", "call_tiles", "winning_tile"], ["SS 2222a 4444b 6666c"]]}] }
  ]
|
.buttons."4_am_sextet" = { "display_name": "Sextet", "call": [[0, 0, 0, 0, 0]] }
|
if .buttons."1_am_pung" then .buttons."1_am_pung"."precedence_over" += ["am_sextet"] else . end
