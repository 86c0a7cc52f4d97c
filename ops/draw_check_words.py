"""Every word ``draw_check.py`` shows, in English and Japanese: a template a message id
(``str.format``), the two tables with the same ids and the same parameters.  The
standard library only, like the checker beside it: the two files run anywhere."""

EN = {
    "round": "round",
    "seated": "seated",
    "tables": "tables",
    "most_met": "most met",
    "excess": "excess",
    "consecutive": "consecutive",
    "seat_off": "seat off",
    "first_seat_off": "first seat off",
    "night": "night",
    "key": "Each round's figures are the night's up to and including that round.\n"
    "most met        the most rounds any two players sat at one table\n"
    "excess          over every pair, the rounds together beyond their first\n"
    "consecutive     a pair at one table in a round and again in the next\n"
    "seat off        players whose count in some seat is a whole seat or more\n"
    "                from their fair share; first seat off: the same for seat 1",
    "met": "met {times} times: {a} and {b}",
    "off": "player {player}: seat {seat} {count} times, a fair share {fair}",
    "or": "{low} or {high}",
    "w_round": "round",
    "w_table": "table",
    "w_seat": "seat",
    "not_whole": "line {line}: the {what} {text!r} is not a whole number",
    "below": "line {line}: the {what} {value} is below {lowest}",
    "no_id": "line {line}: no player id in column {column}",
    "twice": "line {line}: player {player} is in round {round} twice (also on line {other})",
    "half": "line {line}: a table needs a seat, and a seat a table",
    "taken": "line {line}: seat {seat} of table {table} in round {round} is taken twice"
    " (also on line {other})",
    "gap": "line {line}: round {round}, table {table} has seat {seat} but no seat {expected}",
    "no_rows": "no seating rows: no line starts with a round number",
    "bad_csv": "line {line}: cannot be read as CSV (a cell too long, or a quote not closed)",
    "not_csv": "not CSV text (an XLSX or a PDF?): download the seating as CSV",
    "no_file": "no such file",
    "folder": "a folder, not a file",
    "denied": "not allowed to read it",
    "unreadable": "cannot be read ({reason})",
    "about": "Check a night's draw from its seating.",
    "h_file": "the night's seating export (CSV)",
    "h_json": "the figures as JSON",
    "h_lang": "the language of the output (default: from LANG, LC_ALL or LC_MESSAGES)",
}
JA = {
    "round": "ラウンド",
    "seated": "着席",
    "tables": "卓数",
    "most_met": "最多同卓",
    "excess": "重複",
    "consecutive": "連続同卓",
    "seat_off": "席の偏り",
    "first_seat_off": "席1の偏り",
    "night": "夜全体",
    "key": "各ラウンドの数字は、そのラウンドまでの今夜の数字です。\n"
    "最多同卓    同じ 2 人が同じ卓に座ったラウンド数の最大\n"
    "重複        どの 2 人についても、2 度目からの同卓ラウンド数の合計\n"
    "連続同卓    あるラウンドで同卓し、次のラウンドでも同卓した 2 人の組の数\n"
    "席の偏り    ある席に座った回数が公平な回数から 1 回分以上ずれている人数\n"
    "席1の偏り   同じく、席 1（最初の親）について",
    "met": "{times} 回同卓: {a} と {b}",
    "off": "プレイヤー {player}: 席 {seat} に {count} 回（公平な回数 {fair}）",
    "or": "{low}〜{high}",
    "w_round": "ラウンド",
    "w_table": "卓",
    "w_seat": "席",
    "not_whole": "{line} 行目: {what}の「{text}」は整数ではありません",
    "below": "{line} 行目: {what}の {value} は {lowest} 未満です",
    "no_id": "{line} 行目: {column} 列目にプレイヤー ID がありません",
    "twice": "{line} 行目: プレイヤー {player} がラウンド {round} に 2 回います"
    "（{other} 行目にも）",
    "half": "{line} 行目: 卓には席が、席には卓が必要です",
    "taken": "{line} 行目: ラウンド {round} の卓 {table} の席 {seat} に 2 人います"
    "（{other} 行目にも）",
    "gap": "{line} 行目: ラウンド {round} の卓 {table} に席 {seat} があり、席 {expected} が"
    "ありません",
    "no_rows": "席順の行がありません: ラウンド番号で始まる行がありません",
    "bad_csv": "{line} 行目を CSV として読めません（長すぎるセルか、閉じていない引用符があります）",
    "not_csv": "CSV のテキストではありません（XLSX か PDF？）: 席順を CSV でダウンロード"
    "してください",
    "no_file": "ファイルがありません",
    "folder": "ファイルではなくフォルダーです",
    "denied": "読む権限がありません",
    "unreadable": "読めません（{reason}）",
    "about": "1 夜の組み合わせを席順から確かめます。",
    "h_file": "その夜の席順のエクスポート（CSV）",
    "h_json": "数字を JSON で出力",
    "h_lang": "出力の言語（既定: LANG、LC_ALL または LC_MESSAGES から）",
}
WORDS = {"en": EN, "ja": JA}
