"""Feishu (Lark), one chat channel among several: the channel factory (`app`), its HTTP
route (`http`, `POST /feishu/events`) and long connection (`long_connection`, `travel-bot
feishu`), events as incoming messages (`incoming`, `events`), the open API (`api`), the
reply sink with card streaming (`sink`, `streaming`), cards (`cards`, `plan_card`,
`prefs_card`), card buttons (`actions`) and the preferences card (`prefs`). Only this
package imports `lark_oapi`."""
